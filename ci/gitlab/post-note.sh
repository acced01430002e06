#!/usr/bin/env bash
# Create or update the one merge-request note that carries planview's hidden
# marker (the first line of BODY_FILE, `<!-- planview:ID -->`), through
# GitLab's notes API. Only the token's own notes are candidates for update
# (see ci/lib.sh): a note by anyone else is never edited, whatever it says.
#
# usage: post-note.sh BODY_FILE
# env:   CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID (set by GitLab in merge-request pipelines)
#        PLANVIEW_GITLAB_TOKEN  a project or personal access token with `api` scope
#                               (sent as PRIVATE-TOKEN); without it CI_JOB_TOKEN is tried
#                               (JOB-TOKEN), which most GitLab versions do not let write notes
#                               nor ask who it is (`update` then fails: use `new` or a token)
#        PLANVIEW_COMMENT_MODE  update (default), new, off
#
# Exit 0 when the note was created or updated (or nothing was to be posted);
# 1 when the API refused (401/403 included) or failed; 2 for a usage error.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib.sh
. "$here/lib.sh"
pv_platform=gitlab

body_file=${1:?usage: post-note.sh BODY_FILE}
mode=${PLANVIEW_COMMENT_MODE:-update}
case "$mode" in
  off) echo "planview: comment mode off: nothing posted"; exit 0 ;;
  update | new) ;;
  *) pv_fail "comment mode must be update, new or off, not '$(pv_inert "$mode")'" 2 ;;
esac
if [ ! -s "$body_file" ]; then
  echo "planview: no note to post (nothing changes)"
  exit 0
fi
if [ -z "${CI_MERGE_REQUEST_IID:-}" ]; then
  echo "planview: not a merge-request pipeline: no note posted"
  exit 0
fi
need curl jq
api=${CI_API_V4_URL:?CI_API_V4_URL is not set}
api=${api%/}
project=${CI_PROJECT_ID:?CI_PROJECT_ID is not set}
case "$project$CI_MERGE_REQUEST_IID" in *[!0-9]*) pv_fail "CI_PROJECT_ID and CI_MERGE_REQUEST_IID must be numbers" 2 ;; esac
marker=$(marker_of "$body_file") || pv_fail "$(pv_inert "$body_file") does not start with planview's marker" 2
if [ -n "${PLANVIEW_GITLAB_TOKEN:-}" ]; then
  pv_setup "PRIVATE-TOKEN: $PLANVIEW_GITLAB_TOKEN"
else
  pv_setup "JOB-TOKEN: ${CI_JOB_TOKEN:?neither PLANVIEW_GITLAB_TOKEN nor CI_JOB_TOKEN is set}"
fi
notes="$api/projects/$project/merge_requests/$CI_MERGE_REQUEST_IID/notes"
data="$pv_tmp/data"
payload "$body_file" "$data"

id=""
if [ "$mode" = update ]; then
  gitlab_me
  own_comments "$notes?sort=asc&order_by=created_at" "$gitlab_own"
  first=$(head -n 1 "$pv_tmp/own")
  [ -z "$first" ] || id=$(pv_id "$first")
fi

if [ -n "$id" ]; then
  http PUT "$notes/$id" "$data"
  pv_expect 200 "updating note $id"
  echo "planview: updated note $id"
else
  http POST "$notes" "$data"
  pv_expect 201 "creating the note"
  echo "planview: created note $(pv_id "$response")"
fi
