#!/usr/bin/env bash
# Re-creates roots/{prod,staging}/plan.json (a directory of roots, each root's
# plan beside its configuration: `planview gate testdata/locate/roots` reads
# each root's configuration from its own directory) with the terraform on
# PATH (1.11), offline: terraform_data only.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TERRAFORM="${TERRAFORM:-terraform}"
export TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1 TF_INPUT=0
unset TF_LOG TF_WORKSPACE TF_CLI_ARGS TF_DATA_DIR TF_PLUGIN_CACHE_DIR
TMP="$(mktemp -d "${TMPDIR:-/tmp}/planview-roots.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
: >"$TMP/terraformrc"
export TF_CLI_CONFIG_FILE="$TMP/terraformrc"
for root in prod staging; do
  mkdir "$TMP/$root"
  cp "$HERE/$root/main.tf" "$TMP/$root/"
  (cd "$TMP/$root" && "$TERRAFORM" init -no-color >/dev/null && "$TERRAFORM" plan -no-color -out=plan.out >/dev/null \
    && "$TERRAFORM" show -json plan.out >"$HERE/$root/plan.json")
done
