#!/usr/bin/env bash
# Re-creates plan.json (and plan-line.txt, the CLI's own `Plan:` line) in this
# directory: apply main.tf with v1.tfvars, then plan v2.tfvars. Needs only
# terraform (the built-in terraform_data: no provider download, no network).
# terraform_data ids are random UUIDs, so ids differ between runs; nothing
# else does.
#
# Usage: testdata/noise/make.sh    (TERRAFORM=/path/to/terraform to choose one)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TERRAFORM="${TERRAFORM:-terraform}"
export TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1 TF_INPUT=0
TMP="$(mktemp -d "${TMPDIR:-/tmp}/planview-noise.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
: >"$TMP/terraformrc"
export TF_CLI_CONFIG_FILE="$TMP/terraformrc" TF_DATA_DIR="$TMP/tfdata"
cp "$HERE/main.tf" "$HERE/v1.tfvars" "$HERE/v2.tfvars" "$TMP/"
cd "$TMP"
"$TERRAFORM" init -no-color >/dev/null
"$TERRAFORM" apply -no-color -auto-approve -var-file=v1.tfvars >/dev/null
"$TERRAFORM" plan -no-color -var-file=v2.tfvars -out=plan.out >plan.txt
"$TERRAFORM" show -json plan.out | python3 -m json.tool --indent 2 >"$HERE/plan.json"
grep '^Plan:' plan.txt >"$HERE/plan-line.txt"
cp plan.txt "$HERE/plan.txt"
