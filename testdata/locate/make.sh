#!/usr/bin/env bash
# Re-creates the plans of testdata/locate/ (the configuration `root/` that
# planview locates findings in) with the terraform on PATH (1.11), offline:
# only terraform_data and terraform_remote_state, no provider downloads.
#
#   1. apply v1/ (count = 3, old_name, legacy, gone, module.old, ...);
#   2. pack vendor/fetched/ into /tmp/planview-locate-vendor/fetched.tar.gz,
#      which root/main.tf's module "fetched" names (`file::` source: `init`
#      fetches and unpacks it into .terraform/modules/, as for a remote module);
#   3. in a copy of root/ with v1's state: init, plan -> plan.json (a failing
#      check block, a shrunk count, a move, a forget, an import, a delete with
#      no block), and plan -var guard=shut -> errored.json (a failing
#      precondition: plan exits 1 and still writes the plan);
#   4. copy .terraform/modules/ (modules.json and the fetched module) back
#      into root/, as `init` leaves it in a real checkout.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TERRAFORM="${TERRAFORM:-terraform}"
export TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1 TF_INPUT=0
unset TF_LOG TF_WORKSPACE TF_CLI_ARGS TF_DATA_DIR TF_PLUGIN_CACHE_DIR
TMP="$(mktemp -d "${TMPDIR:-/tmp}/planview-locate.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
: >"$TMP/terraformrc"
export TF_CLI_CONFIG_FILE="$TMP/terraformrc"

VENDOR=/tmp/planview-locate-vendor
rm -rf "$VENDOR" && mkdir -p "$VENDOR"
tar -czf "$VENDOR/fetched.tar.gz" -C "$HERE/vendor/fetched" .

cp -r "$HERE/v1" "$TMP/v1"
(cd "$TMP/v1" && "$TERRAFORM" init -no-color >/dev/null && "$TERRAFORM" apply -no-color -auto-approve >/dev/null)

mkdir "$TMP/root"
(cd "$HERE/root" && tar --exclude=./.terraform -cf - .) | (cd "$TMP/root" && tar -xf -)
cp "$TMP/v1/terraform.tfstate" "$TMP/root/terraform.tfstate"
cd "$TMP/root"
"$TERRAFORM" init -no-color >/dev/null
"$TERRAFORM" plan -no-color -out=plan.out >"$HERE/plan.txt"
"$TERRAFORM" show -json plan.out >"$HERE/plan.json"
rc=0
"$TERRAFORM" plan -no-color -var guard=shut -out=errored.out >/dev/null 2>"$HERE/errored-stderr.txt" || rc=$?
[ "$rc" = 1 ] || { echo "plan -var guard=shut exited $rc, expected 1" >&2; exit 1; }
"$TERRAFORM" show -json errored.out >"$HERE/errored.json"
"$TERRAFORM" version >"$HERE/VERSION"

rm -rf "$HERE/root/.terraform"
mkdir -p "$HERE/root/.terraform"
cp -r .terraform/modules "$HERE/root/.terraform/modules"
echo "wrote $HERE/plan.json, errored.json and root/.terraform/modules" >&2
