#!/usr/bin/env bash
# Shared by ci/github/post-comment.sh and ci/gitlab/post-note.sh: one HTTP call
# with curl, and the marker a planview comment body starts with.

# http METHOD URL [JSON_FILE]: sets $status (the HTTP code, 000 when curl
# failed) and $response (the body). The auth header comes from $auth_header.
http() {
  local method=$1 url=$2 data=${3:-} out
  out=$(mktemp)
  local args=(-sS -o "$out" -w '%{http_code}' -X "$method" -H "$auth_header" -H 'Accept: application/json')
  if [ -n "${extra_header:-}" ]; then args+=(-H "$extra_header"); fi
  if [ -n "$data" ]; then args+=(-H 'Content-Type: application/json' --data-binary "@$data"); fi
  status=$(curl "${args[@]}" "$url") || status=000
  response=$(cat "$out")
  rm -f "$out"
}

# marker_of BODY_FILE: the body's first line when it is planview's hidden
# marker (`<!-- planview:ID -->`); fails otherwise.
marker_of() {
  local first
  first=$(head -n 1 "$1")
  case "$first" in
    '<!-- planview:'*' -->') printf '%s' "$first" ;;
    *) return 1 ;;
  esac
}

# payload BODY_FILE OUT_FILE: {"body": <the file's text>}.
payload() {
  jq -Rs '{body: .}' <"$1" >"$2"
}

# need COMMAND...: fail with a message when one is missing.
need() {
  local c
  for c in "$@"; do
    command -v "$c" >/dev/null 2>&1 || { echo "planview: $c is needed to post the comment" >&2; return 1; }
  done
}
