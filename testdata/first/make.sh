#!/usr/bin/env bash
# Writes the "first five minutes" fixtures (issue 26, part 2) from the
# configurations in config/, with nothing but the terraform binary
# (terraform_data: no provider, no network). Run from anywhere:
#   bash testdata/first/make.sh            (TERRAFORM=/path/to/terraform to choose)
#
# live/     a tree of roots made by README's own recipe, in each root:
#             terraform plan -out plan.out && terraform show -json plan.out > plan.json
#           net/     plan.out + plan.json (the plan destroys one object) and the
#                    state.json it was planned against (`terraform show -json`)
#           app/     plan.out + plan.json (creates only)
#           shared/  state.json only (an applied root, no plan)
# saved/    a root holding only a saved plan (planview shows it itself)
# wrong/    the two likeliest wrong inputs, from the net plan:
#           human.txt  `terraform show plan.out` (the CLI's human text, no -json)
#           log.json   `terraform plan -json` (the machine-readable UI log stream)
# Ids (random UUIDs) and timestamps differ between runs; nothing else does.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TERRAFORM="${TERRAFORM:-terraform}"
export TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1 TF_INPUT=0
unset TF_LOG TF_LOG_PATH TF_WORKSPACE TF_CLI_ARGS TF_CLI_ARGS_plan TF_CLI_ARGS_show TF_PLUGIN_CACHE_DIR
TMP="$(mktemp -d "${TMPDIR:-/tmp}/planview-first.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
: >"$TMP/terraformrc"
export TF_CLI_CONFIG_FILE="$TMP/terraformrc"

tf() { local dir="$1"; shift; (cd "$dir" && TF_DATA_DIR="$dir/.tfdata" "$TERRAFORM" "$@"); }
quiet() { local dir="$1"; shift; tf "$dir" "$@" -no-color -input=false >"$TMP/log" 2>&1 || { cat "$TMP/log" >&2; exit 1; }; }
# work NAME CONFIG: a fresh working copy of config/CONFIG, initialised.
work() { rm -rf "$TMP/$1"; mkdir -p "$TMP/$1"; cp "$HERE/config/$2"/*.tf "$TMP/$1/"; quiet "$TMP/$1" init; }
# recipe NAME OUT: README's recipe in working copy NAME, results into OUT.
recipe() {
  tf "$TMP/$1" plan -input=false -no-color -out plan.out >/dev/null
  tf "$TMP/$1" show -json plan.out >"$TMP/$1/plan.json"
  mkdir -p "$2"; cp "$TMP/$1/plan.out" "$TMP/$1/plan.json" "$2/"
}

rm -rf "$HERE/live" "$HERE/saved" "$HERE/wrong"
mkdir -p "$HERE/live" "$HERE/wrong"

# net: applied at v1, planned at v2 (destroys legacy_gateway, adds a subnet).
work net net/v1; quiet "$TMP/net" apply -auto-approve
mkdir -p "$HERE/live/net"; tf "$TMP/net" show -json >"$HERE/live/net/state.json"
rm -f "$TMP/net"/*.tf; cp "$HERE/config/net/v2"/*.tf "$TMP/net/"
recipe net "$HERE/live/net"
tf "$TMP/net" show -no-color plan.out >"$HERE/wrong/human.txt"
tf "$TMP/net" plan -json -input=false >"$HERE/wrong/log.json"

# app: nothing applied yet; creates only.
work app app; recipe app "$HERE/live/app"

# shared: applied; only its state is kept.
work shared shared; quiet "$TMP/shared" apply -auto-approve
mkdir -p "$HERE/live/shared"; tf "$TMP/shared" show -json >"$HERE/live/shared/state.json"

# saved: a saved plan alone (the app plan).
mkdir -p "$HERE/saved/app"; cp "$HERE/live/app/plan.out" "$HERE/saved/app/plan.out"
echo "done: $(cd "$HERE" && find live saved wrong -type f | sort | tr '\n' ' ')"
