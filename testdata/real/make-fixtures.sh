#!/usr/bin/env bash
# Re-creates every generated file under testdata/real/ from the committed
# configurations (*.tf, *.tfvars, hand-written remote.tfstate files).
#
# Usage: testdata/real/make-fixtures.sh [SCENARIO...]   (default: all)
#        TERRAFORM=/path/to/terraform testdata/real/make-fixtures.sh
#
# Needs only the terraform binary (built-in terraform_data and
# terraform_remote_state; no provider downloads, no network) and python3.
# Every terraform command runs in a throwaway working copy under a temp dir,
# with a throwaway TF_DATA_DIR, so no .terraform/, lock file, plan.out or
# terraform.tfstate ends up in testdata. Output that depends on the run
# (timestamps, terraform_data ids which are random UUIDs, state lineage) differs
# between runs; everything else is reproducible.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TERRAFORM="${TERRAFORM:-terraform}"

export TF_IN_AUTOMATION=1
export CHECKPOINT_DISABLE=1
export TF_INPUT=0
# Keep the caller's environment from changing what terraform does.
unset TF_LOG TF_LOG_PATH TF_WORKSPACE TF_CLI_ARGS TF_CLI_ARGS_init TF_CLI_ARGS_plan \
      TF_CLI_ARGS_apply TF_CLI_ARGS_show TF_PLUGIN_CACHE_DIR TF_REATTACH_PROVIDERS
while IFS= read -r v; do unset "$v"; done < <(compgen -e | grep '^TF_VAR_' || true)

TMP="$(mktemp -d "${TMPDIR:-/tmp}/planview-real-fixtures.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
: >"$TMP/terraformrc"                 # empty CLI config (no plugin cache, no credentials)
export TF_CLI_CONFIG_FILE="$TMP/terraformrc"

# Files this script writes into a scenario directory (removed before each run).
GENERATED=(plan.json plan.txt plan-line.txt plan-stdout.txt plan-stderr.txt
           state.json state.txt empty-state.json generated.tf.txt apply-failed.txt)

SCEN="" OUT="" WD="" LOGDIR=""

log() { printf '%s\n' "$*" >&2; }
die() { log "ERROR ($SCEN): $*"; exit 1; }

# begin NAME: start a scenario with a fresh working copy and TF_DATA_DIR.
begin() {
  SCEN="$1"
  OUT="$HERE/$SCEN"
  [ -d "$OUT" ] || die "no such scenario directory: $OUT"
  WD="$TMP/$SCEN/work"
  LOGDIR="$TMP/$SCEN/logs"
  rm -rf "$TMP/$SCEN"
  mkdir -p "$WD" "$LOGDIR"
  export TF_DATA_DIR="$TMP/$SCEN/tfdata"
  local f
  for f in "${GENERATED[@]}"; do rm -f "$OUT/$f"; done
  log "== $SCEN"
}

# tf ARGS...: run terraform inside the working copy.
tf() { (cd "$WD" && "$TERRAFORM" "$@"); }

# run LOGNAME ARGS...: run terraform, log output, fail loudly on error.
run() {
  local name="$1"; shift
  if ! tf "$@" >"$LOGDIR/$name.log" 2>&1; then
    cat "$LOGDIR/$name.log" >&2
    die "terraform $* failed"
  fi
}

# load [SUBDIR]: replace the working copy's configuration with the committed
# one from $OUT/SUBDIR (or $OUT itself), keeping the working copy's state.
# Copies *.tf, *.tfvars and *.tfstate (hand-written remote states) only;
# version subdirectories (v1/, v2/, ...) are skipped when loading $OUT itself.
load() {
  local src="$OUT${1:+/$1}"
  [ -d "$src" ] || die "no such config dir: $src"
  find "$WD" -mindepth 1 -maxdepth 1 ! -name terraform.tfstate ! -name terraform.tfstate.backup \
    -exec rm -rf {} +
  (cd "$src" && find . -path './v[0-9]*' -prune -o -type f \
      \( -name '*.tf' -o -name '*.tfvars' -o -name '*.tfstate' \) -print) |
  while IFS= read -r f; do
    mkdir -p "$WD/$(dirname "$f")"
    cp "$src/$f" "$WD/$f"
  done
  run "init-${1:-root}" init -no-color -input=false
}

apply() { run "apply-${1:-x}" apply -no-color -input=false -auto-approve; }

# plan EXPECTED_RC [EXTRA_ARGS...]: terraform plan -out=plan.out, then
# plan.json / plan.txt from `terraform show`, and plan-line.txt from the
# stdout of that same plan run.
plan() {
  local want="$1"; shift
  local rc=0
  rm -f "$WD/plan.out"
  tf plan -no-color -input=false -out=plan.out "$@" \
    >"$OUT/plan-stdout.txt" 2>"$LOGDIR/plan-stderr" || rc=$?
  if [ -s "$LOGDIR/plan-stderr" ]; then cp "$LOGDIR/plan-stderr" "$OUT/plan-stderr.txt"; fi
  if [ "$rc" != "$want" ]; then
    cat "$OUT/plan-stdout.txt" "$LOGDIR/plan-stderr" >&2
    die "terraform plan $* exited $rc, expected $want"
  fi
  [ -f "$WD/plan.out" ] || die "terraform plan did not write plan.out"
  tf show -json plan.out >"$OUT/plan.json"
  tf show -no-color plan.out >"$OUT/plan.txt"

  local lines
  lines="$(grep -E '^(Plan: |No changes\.)' "$OUT/plan-stdout.txt" || true)"
  if [ -z "$lines" ]; then
    # No "Plan:"/"No changes." line (a refresh-only plan that only updates
    # outputs): keep the last paragraph terraform printed, verbatim (it is
    # wrapped over two lines).
    lines="$(awk 'NF { p = p $0 "\n"; next } { if (p != "") last = p; p = "" }
                  END { if (p != "") last = p; printf "%s", last }' "$OUT/plan-stdout.txt")"
    log "   note: no Plan:/No changes. line; plan-line.txt = last paragraph printed"
  elif [ "$(printf '%s\n' "$lines" | wc -l)" != 1 ]; then
    die "several plan lines: $lines"
  fi
  printf '%s\n' "$lines" >"$OUT/plan-line.txt"
  log "   $lines"
}

# state: state.json / state.txt from `terraform show` of the current state.
state() {
  tf show -json >"$OUT/state.json"
  tf show -no-color >"$OUT/state.txt"
}

# ---------------------------------------------------------------- scenarios

s_basic() {
  begin basic
  load v1; apply v1
  load v2; plan 0
}

s_replace() {
  begin replace
  load v1; apply v1
  run taint taint -no-color terraform_data.tainted
  load v2; plan 0 -replace=terraform_data.requested
}

s_count_foreach() {
  begin count-foreach
  load v1; apply v1
  load v2; plan 0
}

s_modules() {
  begin modules
  load v1; apply v1
  load v2; plan 0
}

s_moved() {
  begin moved
  load v1; apply v1
  load v2; plan 0
}

s_removed() {
  begin removed
  load v1; apply v1
  load v2; plan 0
}

s_import() {
  begin import
  load; plan 0 -generate-config-out=generated.tf
  cp "$WD/generated.tf" "$OUT/generated.tf.txt"
}

s_data_read() {
  begin data-read
  load; plan 0
}

s_checks() {
  begin checks
  load; plan 0
}

s_errored() {
  begin errored
  load; plan 1          # precondition failure: exit 1, but plan.out is still written
}

s_sensitive() {
  begin sensitive
  load v1; apply v1
  load v2; plan 0
  run apply-plan apply -no-color -input=false plan.out
  state                 # state after applying v2: shows where the secrets end up
}

s_secret_forms() {
  begin secret-forms
  load v1; apply v1
  state                 # state after v1: unmarked copies of the secrets in outputs
  load v2; plan 0
}

s_derived_secrets() {
  begin derived-secrets
  load v1; apply v1
  load v2; plan 0
}

s_destroy() {
  begin destroy
  load; apply
  plan 0 -destroy
}

s_public_names() {
  begin public-names
  load; plan 0
}

s_noop() {
  begin noop
  load; apply
  plan 0
}

s_refresh_only() {
  begin refresh-only
  load; apply
  plan 0 -refresh-only
}

s_refresh_only_outputs() {
  begin refresh-only-outputs
  load v1; apply v1
  load v2; plan 0 -refresh-only
}

s_state() {
  begin state
  load; apply
  run taint1 taint -no-color 'terraform_data.counted[1]'
  run taint2 taint -no-color 'module.platform.module.db.terraform_data.replica[0]'
  state
  plan 0
  # `terraform show -json` with no state at all (fresh, empty directory).
  local empty="$TMP/$SCEN/empty"
  mkdir -p "$empty"
  (cd "$empty" && TF_DATA_DIR="$empty/.tfdata" "$TERRAFORM" show -json) >"$OUT/empty-state.json"
}

s_refactor_rename() {
  begin refactor-rename
  load v1; apply v1
  load v2; plan 0
}

s_refactor_count_to_foreach() {
  begin refactor-count-to-foreach
  load v1; apply v1
  load v2; plan 0
}

s_refactor_into_module() {
  begin refactor-into-module
  load v1; apply v1
  load v2; plan 0
}

s_deposed() {
  begin deposed
  load v1; apply v1
  load v2
  # Expected to fail: the create_before_destroy replacement is created, its
  # postcondition fails, and the old object is left behind as deposed.
  local rc=0
  tf apply -no-color -input=false -auto-approve >"$OUT/apply-failed.txt" 2>&1 || rc=$?
  [ "$rc" = 1 ] || die "v2 apply exited $rc, expected 1"
  state
  grep -q '"deposed_key"' "$OUT/state.json" || die "no deposed object in state"
  load v3; plan 0
}

s_sensitivity_only() {
  begin sensitivity-only
  load v1; apply v1
  load v2; plan 0
}

s_trailing_newline() {
  begin trailing-newline
  load v1; apply v1
  load v2; plan 0
}

s_heredoc_context() {
  begin heredoc-context
  load v1; apply v1
  load v2; plan 0
}

s_moves_unknown() {
  begin moves-unknown
  load v1; apply v1
  load v2; plan 0
}

s_targeted() {
  begin targeted
  load v1; apply v1
  load v2; plan 0 -target=terraform_data.web
}

# plan_pair NAME EXPECTED_RC [EXTRA_ARGS...]: `plan`, kept as NAME.json (the
# text files of the run are not kept: pairs are read by `planview diff`).
plan_pair() {
  local name="$1"; shift
  plan "$@"
  mv "$OUT/plan.json" "$OUT/$name.json"
  rm -f "$OUT/plan.txt" "$OUT/plan-line.txt" "$OUT/plan-stdout.txt" "$OUT/plan-stderr.txt"
}

# Pairs of plans for `planview diff` / `fingerprint`: each is compared with
# reviewed.json. replan: the same configuration planned again (a new
# timestamp; the job's id and input unknown again). changed-attribute,
# new-resource, moved: one change to the configuration. replace-reason: the
# same replacement of cache, tainted instead of requested with -replace.
# drift.json: replan.json with drift added by the python below (terraform_data
# never drifts: its read changes nothing).
s_plan_pairs() {
  begin plan-pairs
  rm -f "$OUT"/*.json
  load v1; apply v1
  load reviewed; plan_pair reviewed 0 -replace=terraform_data.cache
  sleep 1
  plan_pair replan 0 -replace=terraform_data.cache
  load changed-attribute; plan_pair changed-attribute 0 -replace=terraform_data.cache
  load new-resource; plan_pair new-resource 0 -replace=terraform_data.cache
  load moved; plan_pair moved 0 -replace=terraform_data.cache
  load reviewed
  run taint taint -no-color terraform_data.cache
  plan_pair replace-reason 0
  python3 - "$OUT" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
plan = json.loads((out / "replan.json").read_text())
app = next(rc for rc in plan["resource_changes"] if rc["address"] == "terraform_data.app")
before = app["change"]["before"]
drifted = dict(before, input=dict(before["input"], team="b"))
plan["resource_drift"] = [{
    "address": app["address"], "mode": app["mode"], "type": app["type"], "name": app["name"],
    "provider_name": app["provider_name"],
    "change": {"actions": ["update"], "before": before, "after": drifted,
               "after_unknown": {}, "before_sensitive": {}, "after_sensitive": {}},
}]
(out / "drift.json").write_text(json.dumps(plan))
PY
}

s_long_values() {
  begin long-values
  load v1; apply v1
  state                 # state after v1: outputs longer than a table cell
  load v2; plan 0
}

s_moved_replaced() {
  begin moved-replaced
  load v1; apply v1
  load v2; plan 0
}

s_show_classes() {
  begin show-classes
  load v1; apply v1
  load v2; plan 0
}

# plan-line.txt: the CLI prints no Plan: line; it holds both sentences it
# prints, in order (the refresh-only one, then the outputs one).
s_refresh_only_drift() {
  begin refresh-only-drift
  load v1; apply v1
  load v2; plan 0 -refresh-only
  awk '/^This is a refresh-only plan/,/^$/ { if (NF) print } /^You can apply this plan/,/^$/ { if (NF) print }' \
    "$OUT/plan-stdout.txt" >"$OUT/plan-line.txt"
}

ALL=(basic replace count-foreach modules moved removed import data-read checks
     errored sensitive destroy noop refresh-only refresh-only-outputs state
     refactor-rename refactor-count-to-foreach refactor-into-module deposed
     secret-forms derived-secrets sensitivity-only trailing-newline moves-unknown
     targeted moved-replaced plan-pairs public-names long-values
     show-classes refresh-only-drift heredoc-context)

main() {
  command -v "$TERRAFORM" >/dev/null || { log "terraform not found"; exit 1; }
  command -v python3 >/dev/null || { log "python3 not found"; exit 1; }
  local todo=("$@")
  [ ${#todo[@]} -gt 0 ] || todo=("${ALL[@]}")
  if [ $# -eq 0 ]; then
    "$TERRAFORM" version >"$HERE/VERSION"
  fi
  local s
  for s in "${todo[@]}"; do
    "s_${s//-/_}"
  done

  # Sanity: every JSON file parses, and nothing refers to the temp dir.
  python3 - "$HERE" "$TMP" <<'PY'
import json, pathlib, sys
root, tmp = pathlib.Path(sys.argv[1]), sys.argv[2]
bad = 0
for p in sorted(root.glob("*/*.json")):
    text = p.read_text()
    try:
        json.loads(text)
    except ValueError as e:
        print(f"INVALID JSON {p}: {e}", file=sys.stderr); bad += 1
    if tmp in text:
        print(f"temp path leaked into {p}", file=sys.stderr); bad += 1
sys.exit(1 if bad else 0)
PY
  log "done"
}

main "$@"
