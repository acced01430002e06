#!/usr/bin/env bash
# Create or update the one merge-request note that carries planview's hidden
# marker (the first line of BODY_FILE, `<!-- planview:ID -->`), through
# GitLab's notes API.
#
# usage: post-note.sh BODY_FILE
# env:   CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID (set by GitLab in merge-request pipelines)
#        PLANVIEW_GITLAB_TOKEN  a project or personal access token with `api` scope
#                               (sent as PRIVATE-TOKEN); without it CI_JOB_TOKEN is tried
#                               (JOB-TOKEN), which most GitLab versions do not let write notes
#        PLANVIEW_COMMENT_MODE  update (default), new, off
#
# A 401/403 is a warning, not a failure: the review stays in the job's artifacts.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib.sh
. "$here/lib.sh"

body_file=${1:?usage: post-note.sh BODY_FILE}
mode=${PLANVIEW_COMMENT_MODE:-update}
case "$mode" in
  off) echo "planview: comment mode off: nothing posted"; exit 0 ;;
  update | new) ;;
  *) echo "planview: comment mode must be update, new or off, not '$mode'" >&2; exit 2 ;;
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
project=${CI_PROJECT_ID:?CI_PROJECT_ID is not set}
if [ -n "${PLANVIEW_GITLAB_TOKEN:-}" ]; then
  auth_header="PRIVATE-TOKEN: $PLANVIEW_GITLAB_TOKEN"
else
  auth_header="JOB-TOKEN: ${CI_JOB_TOKEN:?neither PLANVIEW_GITLAB_TOKEN nor CI_JOB_TOKEN is set}"
fi
marker=$(marker_of "$body_file") || { echo "planview: $body_file does not start with planview's marker" >&2; exit 2; }
notes="$api/projects/$project/merge_requests/$CI_MERGE_REQUEST_IID/notes"

forbidden() {
  echo "planview: warning: the token may not write notes here (HTTP $status); the review is in the job's artifacts" >&2
  exit 0
}

data=$(mktemp)
trap 'rm -f "$data"' EXIT
payload "$body_file" "$data"

id=""
if [ "$mode" = update ]; then
  page=1
  while :; do
    http GET "$notes?per_page=100&page=$page&sort=asc"
    case "$status" in 401 | 403) forbidden ;; esac
    [ "$status" = 200 ] || { echo "planview: listing the notes failed (HTTP $status): $response" >&2; exit 1; }
    id=$(printf '%s' "$response" | jq -r --arg m "$marker" '[.[] | select((.body // "") | startswith($m))][0].id // empty')
    count=$(printf '%s' "$response" | jq 'length')
    if [ -n "$id" ] || [ "$count" -lt 100 ]; then break; fi
    page=$((page + 1))
  done
fi

if [ -n "$id" ]; then
  http PUT "$notes/$id" "$data"
  case "$status" in 401 | 403) forbidden ;; esac
  [ "$status" = 200 ] || { echo "planview: updating note $id failed (HTTP $status): $response" >&2; exit 1; }
  echo "planview: updated note $id"
else
  http POST "$notes" "$data"
  case "$status" in 401 | 403) forbidden ;; esac
  [ "$status" = 201 ] || { echo "planview: creating the note failed (HTTP $status): $response" >&2; exit 1; }
  echo "planview: created note $(printf '%s' "$response" | jq -r '.id')"
fi
