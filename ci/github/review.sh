#!/usr/bin/env bash
# The action's review step: `planview comment` on the `plan` input's files
# with the `args` input's flags, the body to BODY_FILE, planview's exit code to
# $GITHUB_OUTPUT as `exit-code` (the summary and the other outputs are
# planview's own). Inputs are never word-split into flags: `args` is split as
# xargs splits (quotes kept together, nothing globbed or run), `plan`'s
# patterns are expanded here, and every file goes after `--`, so a file named
# `--policy=.json` is a file.
#
# usage: review.sh BODY_FILE
# env:   PLANVIEW_PLAN  the plan file(s) or patterns (space-separated)
#        PLANVIEW_ARGS  more flags for `planview comment`
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
fi
echo "exit-code=$code" >>"${GITHUB_OUTPUT:-/dev/null}"
