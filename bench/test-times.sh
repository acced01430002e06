#!/usr/bin/env bash
# Issue 25: what each slow integration test costs, alone: wall and CPU (user +
# sys, the test and the planview processes it runs) of the `it` binary run
# with `--exact NAME --test-threads 1`, min/median/max over RUNS, and the load
# average before each. CPU seconds are the figure that survives a loaded
# machine. Builds the test binary first (`cargo test --no-run`, test profile).
#   bench/test-times.sh                        # the slowest tests, RUNS=1
#   RUNS=3 bench/test-times.sh memory::summary_of_many_tiny_changes_spools_its_list
#   IT=/var/tmp/it-before bench/test-times.sh  # a copy of an older `it` binary
# (An `it` binary runs the planview of the tree it was built in: copy both to
# compare before and after, or build each in its own worktree.)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-1}
if [ $# -eq 0 ]; then
  set -- \
    memory::fingerprint_gate_and_comment_of_a_plan_bigger_than_their_memory_limit_stream \
    show_stream::a_secret_marked_sensitive_only_after_it_was_printed_is_masked \
    memory::summary_of_many_tiny_changes_spools_its_list \
    exit_codes::a_closed_stdout_never_changes_the_exit_code_of_any_command_format_or_fixture \
    show_stream::streamed_show_writes_what_show_read_whole_wrote_on_every_fixture \
    error_contract::endless_input_on_stdin_ends_with_an_error_not_a_hang \
    error_contract::endless_blank_space_before_or_after_the_document_ends_with_an_error \
    hostile::hostile_strings_never_reach_the_terminal_raw_in_any_command_or_format \
    comment::thousands_of_changes_fit_every_budget_and_stay_balanced \
    hostile::no_secret_marker_appears_in_any_command_or_format \
    show_stream::show_of_a_plan_bigger_than_its_memory_limit_streams \
    questions::no_secret_marker_is_printed_by_any_command_in_any_format \
    plan_diff::fingerprints_are_equal_exactly_when_diff_finds_nothing
fi
it=${IT:-}
if [ -z "$it" ]; then
  it=$(cargo test --locked --test it --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "it" and m.get("executable"):
        print(m["executable"])')
fi
commit=$(git rev-parse --short HEAD)$(git diff --quiet || echo "+dirty")
timefile=$(mktemp)
trap 'rm -f "$timefile"' EXIT
echo "commit $commit, $(nproc) cores, RUNS=$runs, $it"

# shellcheck source=bench/stats.sh
source "$(dirname "$0")/stats.sh"
row() { # label, then numbers: min/median/max
  local label=$1 a b c
  shift
  read -r a b c < <(stats "$@")
  printf '  %-5s min %7.2f  median %7.2f  max %7.2f\n' "$label" "$a" "$b" "$c"
}

for name in "$@"; do
  declare -a wall=() cpu=() loads=()
  for _ in $(seq "$runs"); do
    loads+=("$(cut -d' ' -f1 /proc/loadavg)")
    if ! /usr/bin/time -f '%e %U %S' -o "$timefile" "$it" --exact "$name" --test-threads 1 >/dev/null 2>&1; then
      echo "$name: FAILED (run it alone to see why)"
      continue 2
    fi
    read -r e u s <"$timefile"
    wall+=("$e")
    cpu+=("$(awk -v u="$u" -v s="$s" 'BEGIN {print u + s}')")
  done
  echo "$name (load ${loads[*]})"
  row wall "${wall[@]}"
  row cpu "${cpu[@]}"
done
