#!/usr/bin/env bash
# At apply time: print the fingerprint of the plan that was reviewed in the
# merge request, read back from the token's own note only (as
# ci/gitlab/post-note.sh picks it: a note by anyone else is never read), for
# `planview gate --expect-fingerprint`.
#
# usage: read-fingerprint.sh ID [NAME]   (as ci/github/read-fingerprint.sh)
# env:   CI_API_V4_URL, CI_PROJECT_ID, PLANVIEW_MR_IID (the merge request's IID;
#        default CI_MERGE_REQUEST_IID), PLANVIEW_GITLAB_TOKEN (the token that posted the note)
#
# Prints `sha256:...` and exits 0; exits 1 when the note or its fingerprint is
# not found, or the API refuses.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib.sh
. "$here/lib.sh"
pv_platform=gitlab

id=${1:?usage: read-fingerprint.sh ID [NAME]}
name=${2:-}
need curl jq
api=${CI_API_V4_URL:?CI_API_V4_URL is not set}
api=${api%/}
project=${CI_PROJECT_ID:?CI_PROJECT_ID is not set}
mr=${PLANVIEW_MR_IID:-${CI_MERGE_REQUEST_IID:?neither PLANVIEW_MR_IID nor CI_MERGE_REQUEST_IID is set}}
case "$project$mr" in *[!0-9]*) pv_fail "CI_PROJECT_ID and the merge request's IID must be numbers" 2 ;; esac
marker="<!-- planview:$id -->"
pv_setup "PRIVATE-TOKEN: ${PLANVIEW_GITLAB_TOKEN:?PLANVIEW_GITLAB_TOKEN is not set}"
gitlab_me
read_fingerprint "$api/projects/$project/merge_requests/$mr/notes?sort=asc&order_by=created_at" "$gitlab_own" "$name"
