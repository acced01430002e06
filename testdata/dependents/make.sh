#!/usr/bin/env bash
# Re-creates plan.json and plan.txt (the CLI's own text) in this directory:
# apply main.tf (and its modules) with v1.tfvars, then plan v2.tfvars, which
# replaces terraform_data.db and so changes what refers to it: through a
# local, a module input, a nested module's output, count instances and
# depends_on. Needs only terraform (the built-in terraform_data: no provider
# download, no network). terraform_data ids are random UUIDs, so ids differ
# between runs; nothing else does.
#
# Usage: testdata/dependents/make.sh    (TERRAFORM=/path/to/terraform to choose one)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TERRAFORM="${TERRAFORM:-terraform}"
export TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1 TF_INPUT=0
TMP="$(mktemp -d "${TMPDIR:-/tmp}/planview-dependents.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
: >"$TMP/terraformrc"
export TF_CLI_CONFIG_FILE="$TMP/terraformrc" TF_DATA_DIR="$TMP/tfdata"
cp -r "$HERE/main.tf" "$HERE/modules" "$HERE/v1.tfvars" "$HERE/v2.tfvars" "$TMP/"
cd "$TMP"
"$TERRAFORM" init -no-color >/dev/null
"$TERRAFORM" apply -no-color -auto-approve -var-file=v1.tfvars >/dev/null
"$TERRAFORM" plan -no-color -var-file=v2.tfvars -out=plan.out >plan.txt
"$TERRAFORM" show -json plan.out | python3 -m json.tool --indent 2 >"$HERE/plan.json"
cp plan.txt "$HERE/plan.txt"
