#!/usr/bin/env bash
# Create or update the one pull-request comment that carries planview's
# hidden marker (the first line of BODY_FILE, `<!-- planview:ID -->`), through
# GitHub's REST API. Only the token's own comments are candidates for update
# (see ci/lib.sh): a comment by anyone else is never edited, whatever it says.
#
# usage: post-comment.sh BODY_FILE
# env:   GITHUB_TOKEN            a token that may write pull-request comments
#        GITHUB_REPOSITORY       owner/name
#        PLANVIEW_PR_NUMBER      the pull request's number
#        GITHUB_API_URL          default https://api.github.com (GitHub Enterprise sets it)
#        PLANVIEW_COMMENT_MODE   update (default: edit the token's own comment with the
#                                marker, else create one), new (always create), off (post nothing)
#        PLANVIEW_COMMENT_AUTHOR the login whose comments are the bot's own (default: the
#                                token's user, `github-actions[bot]` for the job's GITHUB_TOKEN;
#                                set it to `SLUG[bot]` for another GitHub App's token)
#
# Exit 0 when the comment was created or updated (or nothing was to be
# posted); 1 when the API refused or failed (403 included: a fork's read-only
# token fails the job; use comment-mode `off` there); 2 for a usage error.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib.sh
. "$here/lib.sh"
pv_platform=github

body_file=${1:?usage: post-comment.sh BODY_FILE}
mode=${PLANVIEW_COMMENT_MODE:-update}
case "$mode" in
  off) echo "planview: comment mode off: nothing posted"; exit 0 ;;
  update | new) ;;
  *) pv_fail "comment mode must be update, new or off, not '$(pv_inert "$mode")'" 2 ;;
esac
if [ ! -s "$body_file" ]; then
  echo "planview: no comment to post (nothing changes)"
  exit 0
fi
need curl jq
api=${GITHUB_API_URL:-https://api.github.com}
api=${api%/}
repo=${GITHUB_REPOSITORY:?GITHUB_REPOSITORY is not set}
pr=${PLANVIEW_PR_NUMBER:?PLANVIEW_PR_NUMBER is not set (not a pull request?)}
case "$pr" in '' | *[!0-9]*) pv_fail "PLANVIEW_PR_NUMBER is not a number" 2 ;; esac
marker=$(marker_of "$body_file") || pv_fail "$(pv_inert "$body_file") does not start with planview's marker" 2
pv_setup "Authorization: Bearer ${GITHUB_TOKEN:?GITHUB_TOKEN is not set}"
pv_headers=("X-GitHub-Api-Version: 2022-11-28")
# The body as its markdown source (HTML comments, the marker, included).
pv_accept=application/vnd.github+json
data="$pv_tmp/data"
payload "$body_file" "$data"

id=""
if [ "$mode" = update ]; then
  github_me
  own_comments "$api/repos/$repo/issues/$pr/comments" "$github_own"
  first=$(head -n 1 "$pv_tmp/own")
  [ -z "$first" ] || id=$(pv_id "$first")
fi

if [ -n "$id" ]; then
  http PATCH "$api/repos/$repo/issues/comments/$id" "$data"
  pv_expect 200 "updating comment $id"
  echo "planview: updated comment $id (by $me)"
else
  http POST "$api/repos/$repo/issues/$pr/comments" "$data"
  pv_expect 201 "creating the comment"
  id=$(pv_id "$response")
  echo "planview: created comment $id"
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "comment_id=$id" >>"$GITHUB_OUTPUT"; fi
