#!/usr/bin/env bash
# The action's review step: `planview comment` on the `plan` input's files
# with the `args` input's flags, the body to BODY_FILE, planview's exit code to
# $GITHUB_OUTPUT as `exit-code` (the summary and the other outputs are
# planview's own). Inputs are never word-split into flags: `args` is split as
# xargs splits (quotes kept together, nothing globbed or run), `plan`'s
# patterns are expanded here, and every file goes after `--`, so a file named
# `--policy=.json` is a file.
#
# With PLANVIEW_SARIF set, `planview gate --format sarif` with the same policy
# flags writes that file too (for the action's upload-sarif step), and its
# path goes to $GITHUB_OUTPUT as `sarif-file` (the gate's verdict is the
# comment's: its exit code is not the step's).
#
# usage: review.sh BODY_FILE
# env:   PLANVIEW_PLAN  the plan file(s) or patterns (space-separated)
#        PLANVIEW_ARGS  more flags for `planview comment`
#        PLANVIEW_SARIF where to write the SARIF report (empty: none)
#        GITHUB_OUTPUT  (set by the runner)
# Exit 0: the code is in the output, for the action's last step.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib.sh
. "$here/lib.sh"
pv_platform=github

body_file=${1:?usage: review.sh BODY_FILE}
pv_split "${PLANVIEW_ARGS:-}"
args=(${pv_words[@]+"${pv_words[@]}"})
pv_plan_files "${PLANVIEW_PLAN:-}"
if [ "${#pv_files[@]}" -eq 0 ]; then
  echo "::error::planview: the plan input names no file"
  code=2
else
  planview comment --platform github ${args[@]+"${args[@]}"} -- "${pv_files[@]}" >"$body_file"
  code=$?
  if [ -n "${PLANVIEW_SARIF:-}" ]; then
    pv_gate_args ${args[@]+"${args[@]}"}
    planview gate --format sarif ${pv_gate_words[@]+"${pv_gate_words[@]}"} -- "${pv_files[@]}" >"$PLANVIEW_SARIF"
    # 0 pass, 1 violations (both a whole report); 2: an input error, noted in the report's run.
    if [ -s "$PLANVIEW_SARIF" ]; then
      echo "sarif-file=$PLANVIEW_SARIF" >>"${GITHUB_OUTPUT:-/dev/null}"
    else
      echo "::warning::planview: no SARIF report was written"
    fi
  fi
fi
echo "exit-code=$code" >>"${GITHUB_OUTPUT:-/dev/null}"
