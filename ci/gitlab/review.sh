#!/usr/bin/env bash
# The GitLab template's script (ci/gitlab/planview.gitlab-ci.yml): the
# terraform report (planview.tfreport.json), `planview comment` on
# $PLANVIEW_PLAN with $PLANVIEW_ARGS (planview-comment.md, and the whole
# review in planview-review.md), then the note (post-note.sh). Inputs are
# never word-split into flags: PLANVIEW_ARGS is split as xargs splits (quotes
# kept together, nothing globbed or run), PLANVIEW_PLAN's patterns are
# expanded here, and every file goes after `--`.
#
# With PLANVIEW_CODEQUALITY=true, `planview gate --format gitlab-codequality`
# with the same policy flags writes gl-code-quality-report.json (the template's
# `.planview-codequality` job uploads it as the Code Quality report).
#
# Exit: planview's code (0 pass, 1 a rule broken, 2 an input error); 1 when
# the note could not be posted and planview passed.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib.sh
. "$here/lib.sh"
pv_platform=gitlab

pv_split "${PLANVIEW_ARGS:-}"
args=(${pv_words[@]+"${pv_words[@]}"})
pv_plan_files "${PLANVIEW_PLAN:-}"
[ "${#pv_files[@]}" -gt 0 ] || pv_fail "PLANVIEW_PLAN names no file" 2
planview summary --format gitlab -- "${pv_files[@]}" >planview.tfreport.json
planview comment --platform gitlab --summary-file planview-review.md ${args[@]+"${args[@]}"} -- "${pv_files[@]}" >planview-comment.md
code=$?
if [ "${PLANVIEW_CODEQUALITY:-}" = true ]; then
  pv_gate_args ${args[@]+"${args[@]}"}
  planview gate --format gitlab-codequality ${pv_gate_words[@]+"${pv_gate_words[@]}"} -- "${pv_files[@]}" >gl-code-quality-report.json
  # 0 pass, 1 violations: both a whole report; 2 (an input error) is in it as a blocker.
  [ -s gl-code-quality-report.json ] || echo "planview: warning: no Code Quality report was written" >&2
fi
bash "$here/gitlab/post-note.sh" planview-comment.md || { [ "$code" -ne 0 ] || code=1; }
exit "$code"
