#!/usr/bin/env bash
# Create or update the one pull-request comment that carries planview's
# hidden marker (the first line of BODY_FILE, `<!-- planview:ID -->`), through
# GitHub's REST API.
#
# usage: post-comment.sh BODY_FILE
# env:   GITHUB_TOKEN          a token that may write pull-request comments
#        GITHUB_REPOSITORY     owner/name
#        PLANVIEW_PR_NUMBER    the pull request's number
#        GITHUB_API_URL        default https://api.github.com (GitHub Enterprise sets it)
#        PLANVIEW_COMMENT_MODE update (default: edit the comment with the marker,
#                              else create one), new (always create), off (post nothing)
#
# A 403 (the read-only token of a pull request from a fork) is a warning, not
# a failure: the review stays in the job summary. Exit 0 unless the API fails otherwise.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib.sh
. "$here/lib.sh"

body_file=${1:?usage: post-comment.sh BODY_FILE}
mode=${PLANVIEW_COMMENT_MODE:-update}
case "$mode" in
  off) echo "planview: comment mode off: nothing posted"; exit 0 ;;
  update | new) ;;
  *) echo "::error::planview: comment mode must be update, new or off, not '$mode'"; exit 2 ;;
esac
if [ ! -s "$body_file" ]; then
  echo "planview: no comment to post (nothing changes)"
  exit 0
fi
need curl jq
api=${GITHUB_API_URL:-https://api.github.com}
repo=${GITHUB_REPOSITORY:?GITHUB_REPOSITORY is not set}
pr=${PLANVIEW_PR_NUMBER:?PLANVIEW_PR_NUMBER is not set (not a pull request?)}
auth_header="Authorization: Bearer ${GITHUB_TOKEN:?GITHUB_TOKEN is not set}"
extra_header="X-GitHub-Api-Version: 2022-11-28"
marker=$(marker_of "$body_file") || { echo "::error::planview: $body_file does not start with planview's marker"; exit 2; }

forbidden() {
  echo "::warning::planview: the token may not write comments here (HTTP 403: a pull request from a fork?); the review is in the job summary"
  exit 0
}

data=$(mktemp)
trap 'rm -f "$data"' EXIT
payload "$body_file" "$data"

id=""
if [ "$mode" = update ]; then
  page=1
  while :; do
    http GET "$api/repos/$repo/issues/$pr/comments?per_page=100&page=$page"
    [ "$status" = 403 ] && forbidden
    [ "$status" = 200 ] || { echo "::error::planview: listing the comments failed (HTTP $status): $response"; exit 1; }
    id=$(printf '%s' "$response" | jq -r --arg m "$marker" '[.[] | select((.body // "") | startswith($m))][0].id // empty')
    count=$(printf '%s' "$response" | jq 'length')
    if [ -n "$id" ] || [ "$count" -lt 100 ]; then break; fi
    page=$((page + 1))
  done
fi

if [ -n "$id" ]; then
  http PATCH "$api/repos/$repo/issues/comments/$id" "$data"
  [ "$status" = 403 ] && forbidden
  [ "$status" = 200 ] || { echo "::error::planview: updating comment $id failed (HTTP $status): $response"; exit 1; }
  echo "planview: updated comment $id"
else
  http POST "$api/repos/$repo/issues/$pr/comments" "$data"
  [ "$status" = 403 ] && forbidden
  [ "$status" = 201 ] || { echo "::error::planview: creating the comment failed (HTTP $status): $response"; exit 1; }
  id=$(printf '%s' "$response" | jq -r '.id')
  echo "planview: created comment $id"
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "comment_id=$id" >>"$GITHUB_OUTPUT"; fi
