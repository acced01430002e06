#!/usr/bin/env bash
# At apply time: print the fingerprint of the plan that was reviewed in the
# pull request, read back from the bot's own comment only (the token's user,
# as ci/github/post-comment.sh picks it: a comment by anyone else, whatever it
# says, is never read), for `planview gate --expect-fingerprint`.
#
# usage: read-fingerprint.sh ID [NAME]
#   ID    the review comment's marker ID, as its first line `<!-- planview:ID -->` shows it
#         (the `--id` given to `planview comment`, or the default made of the input names)
#   NAME  with several plans in one comment, the plan's name on its fingerprint line
# env:   GITHUB_TOKEN, GITHUB_REPOSITORY, PLANVIEW_PR_NUMBER, GITHUB_API_URL,
#        PLANVIEW_COMMENT_AUTHOR (as for post-comment.sh)
#
# Prints `sha256:...` and exits 0; exits 1 (printing nothing on stdout) when
# the bot's comment or its fingerprint is not found, or the API refuses.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib.sh
. "$here/lib.sh"
pv_platform=github

id=${1:?usage: read-fingerprint.sh ID [NAME]}
name=${2:-}
need curl jq
api=${GITHUB_API_URL:-https://api.github.com}
api=${api%/}
repo=${GITHUB_REPOSITORY:?GITHUB_REPOSITORY is not set}
pr=${PLANVIEW_PR_NUMBER:?PLANVIEW_PR_NUMBER is not set}
case "$pr" in '' | *[!0-9]*) pv_fail "PLANVIEW_PR_NUMBER is not a number" 2 ;; esac
marker="<!-- planview:$id -->"
pv_setup "Authorization: Bearer ${GITHUB_TOKEN:?GITHUB_TOKEN is not set}"
pv_headers=("X-GitHub-Api-Version: 2022-11-28")
# The body as its markdown source (HTML comments, the marker, included).
pv_accept=application/vnd.github+json
github_me
read_fingerprint "$api/repos/$repo/issues/$pr/comments" "$github_own" "$name"
