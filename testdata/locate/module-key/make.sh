#!/usr/bin/env bash
# Re-creates testdata/locate/module-key/plan.json and plan.txt with the
# terraform on PATH (1.11), offline (terraform_data only): apply v1/ (module
# "svc" for_each {a, b}, module "pool" count 2), then plan root/ (svc keeps
# only a, pool shrinks to 1) against that state.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TERRAFORM="${TERRAFORM:-terraform}"
export TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1 TF_INPUT=0
unset TF_LOG TF_WORKSPACE TF_CLI_ARGS TF_DATA_DIR TF_PLUGIN_CACHE_DIR
TMP="$(mktemp -d "${TMPDIR:-/tmp}/planview-module-key.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
: >"$TMP/terraformrc"
export TF_CLI_CONFIG_FILE="$TMP/terraformrc"
cp -r "$HERE/v1" "$TMP/v1"
(cd "$TMP/v1" && "$TERRAFORM" init -no-color >/dev/null && "$TERRAFORM" apply -no-color -auto-approve >/dev/null)
cp -r "$HERE/root" "$TMP/root"
cp "$TMP/v1/terraform.tfstate" "$TMP/root/terraform.tfstate"
cd "$TMP/root"
"$TERRAFORM" init -no-color >/dev/null
"$TERRAFORM" plan -no-color -out=plan.out >/dev/null
"$TERRAFORM" show -json plan.out >"$HERE/plan.json"
"$TERRAFORM" show -no-color plan.out >"$HERE/plan.txt"
echo "wrote $HERE/plan.json and plan.txt" >&2
