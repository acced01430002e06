#!/usr/bin/env bash
# Re-creates plan.json / plan.txt / plan-line.txt / schemas.json of every scenario under
# testdata/real-aws/ with the hashicorp/aws provider from a filesystem mirror
# (no network: fake credentials, every provider-side check skipped, and
# `-refresh=false`, so nothing is ever asked of AWS).
#
# Usage: testdata/real-aws/make.sh [SCENARIO...]        (default: all)
#        TERRAFORM=/path/to/terraform TF_PLUGIN_MIRROR=/opt/tf-plugins testdata/real-aws/make.sh
#
# A scenario directory holds `main.tf` (the configuration) and a hand-written
# `terraform.tfstate` (the objects as they "exist"); the plan is what the
# configuration changes in that state. Both are copied into a throwaway
# working copy, so no .terraform/, lock file, plan.out or state copy is left.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TERRAFORM="${TERRAFORM:-terraform}"
MIRROR="${TF_PLUGIN_MIRROR:-/opt/tf-plugins}"

export TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1 TF_INPUT=0
unset TF_LOG TF_LOG_PATH TF_WORKSPACE TF_CLI_ARGS TF_CLI_ARGS_init TF_CLI_ARGS_plan \
      TF_CLI_ARGS_show TF_PLUGIN_CACHE_DIR TF_REATTACH_PROVIDERS
while IFS= read -r v; do unset "$v"; done < <(compgen -e | grep -E '^(TF_VAR_|AWS_)' || true)

TMP="$(mktemp -d "${TMPDIR:-/tmp}/planview-real-aws.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
cat >"$TMP/terraformrc" <<RC
provider_installation {
  filesystem_mirror {
    path    = "$MIRROR"
    include = ["registry.terraform.io/hashicorp/aws"]
  }
}
RC
export TF_CLI_CONFIG_FILE="$TMP/terraformrc"

scenario() {
  local name="$1" out="$HERE/$1" wd="$TMP/$1/work"
  [ -f "$out/main.tf" ] || { echo "no such scenario: $out" >&2; exit 1; }
  echo "== $name" >&2
  mkdir -p "$wd"
  cp "$out/main.tf" "$out/terraform.tfstate" "$wd/"
  export TF_DATA_DIR="$TMP/$name/tfdata"
  (cd "$wd" && "$TERRAFORM" init -no-color -input=false >"$TMP/$name/init.log" 2>&1) ||
    { cat "$TMP/$name/init.log" >&2; exit 1; }
  (cd "$wd" && "$TERRAFORM" plan -no-color -input=false -refresh=false -lock=false -out=plan.out \
     >"$TMP/$name/plan-stdout.txt" 2>&1) || { cat "$TMP/$name/plan-stdout.txt" >&2; exit 1; }
  (cd "$wd" && "$TERRAFORM" show -json plan.out) >"$out/plan.json"
  (cd "$wd" && "$TERRAFORM" show -no-color plan.out) >"$out/plan.txt"
  # The provider schemas, cut to the types the plan uses (see trim-schemas.py).
  (cd "$wd" && "$TERRAFORM" providers schema -json) | python3 "$HERE/trim-schemas.py" "$out/plan.json" >"$out/schemas.json"
  grep -E '^(Plan: |No changes\.)' "$TMP/$name/plan-stdout.txt" >"$out/plan-line.txt"
  cat "$out/plan-line.txt" >&2
}

ALL=(sg-iam sg-iam-near blocks unknown-blocks)
todo=("$@")
[ ${#todo[@]} -gt 0 ] || todo=("${ALL[@]}")
for s in "${todo[@]}"; do scenario "$s"; done
"$TERRAFORM" version -json | python3 -c 'import json,sys; v=json.load(sys.stdin); print("terraform", v["terraform_version"]); [print(k, p) for k, p in sorted(v.get("provider_selections", {}).items())]' >/dev/null
echo done >&2
