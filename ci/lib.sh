#!/usr/bin/env bash
# Shared by the posters (ci/github/post-comment.sh, ci/gitlab/post-note.sh) and
# the read-back scripts (ci/*/read-fingerprint.sh): HTTP calls with curl, the
# token's user, the bot's own comments, and what an error says in the log.
#
# What they hold to:
# - the token never reaches a process's argv: curl reads the auth header from a
#   0600 config file in a 0700 temporary directory, removed on exit;
# - only the token's own comments are candidates (a comment by anyone else is
#   never edited nor read back, whatever its first line);
# - a refusal by the API (401, 403, any unexpected code) fails the job;
# - an API's error body is shown as a bounded excerpt of printable ASCII, every
#   line indented behind `|` and `::`/`##` broken, so it carries no terminal
#   control sequence and no runner command (`::error::`, `::add-mask::`, `##vso[`);
# - at most PLANVIEW_MAX_PAGES pages (default 100) of 100 comments are read;
# - 429 and 5xx (and a 403 that says Retry-After, GitHub's secondary rate
#   limit) are retried: at most PLANVIEW_HTTP_TRIES tries (default 4), waiting
#   what Retry-After says (else 1, 2, 4 ... s), at most 60 s a time and
#   PLANVIEW_HTTP_MAX_WAIT seconds in all (default 120).
#
# The caller sets pv_platform (github or gitlab), and api and marker where
# the functions that use them are called; the filters below are the callers'.
# shellcheck disable=SC2034,SC2154

# pv_fail MESSAGE: print the error (as a GitHub annotation on GitHub) and exit 1.
pv_fail() {
  if [ "${pv_platform:-}" = github ]; then
    echo "::error::planview: $1" >&2
  else
    echo "planview: error: $1" >&2
  fi
  exit "${2:-1}"
}

# need COMMAND...: fail with a message when one is missing.
need() {
  local c
  for c in "$@"; do
    command -v "$c" >/dev/null 2>&1 || pv_fail "$c is needed to post the comment"
  done
}

# pv_excerpt FILE: a bounded, inert excerpt of FILE (at most 10 lines of 200
# printable ASCII characters; any other byte is `?`; every line indented
# behind `|`; `::` and `##` broken apart).
pv_excerpt() {
  head -c 2000 "$1" | LC_ALL=C tr -c '\n -~' '?' | head -n 10 | cut -c 1-200 \
    | sed -e 's/::/: :/g' -e 's/::/: :/g' -e 's/##/# #/g' -e 's/^/    | /'
}

# pv_inert TEXT: TEXT as one inert line for a message (printable ASCII, any
# other byte `?`, at most 200 characters).
pv_inert() {
  printf '%s' "$1" | LC_ALL=C tr -c ' -~' '?' | cut -c 1-200
}

# pv_setup AUTH_HEADER: the private temporary directory ($pv_tmp) and the curl
# config holding the auth header (`Name: value`).
pv_setup() {
  local header=$1
  case "$header" in
    *$'\n'* | *$'\r'*) pv_fail "the token holds a line break" ;;
  esac
  pv_tmp=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/planview.XXXXXX")
  chmod 700 "$pv_tmp"
  header=${header//\\/\\\\}
  header=${header//\"/\\\"}
  # printf is a builtin: the token is written without being any process's argument.
  (umask 077 && printf 'header = "%s"\n' "$header" >"$pv_tmp/auth")
  pv_headers=()
}

# pv_retry_after: the seconds the last response's Retry-After says (empty when none or a date).
pv_retry_after() {
  { grep -i '^retry-after:' "$pv_tmp/headers" 2>/dev/null || true; } | tail -n 1 | cut -d : -f 2- | tr -d ' \r' | grep -E '^[0-9]{1,6}$' || true
}

# http METHOD URL [JSON_FILE]: sets $status (the HTTP code, 000 when curl
# failed) and $response (the body); retries as the header says.
http() {
  local method=$1 url=$2 data=${3:-} tries=0 waited=0 wait after
  local max_tries=${PLANVIEW_HTTP_TRIES:-4} max_wait=${PLANVIEW_HTTP_MAX_WAIT:-120}
  local args=(-sS --config "$pv_tmp/auth" -o "$pv_tmp/body" -D "$pv_tmp/headers" -w '%{http_code}'
    --connect-timeout 10 --max-time 60 --max-filesize 50000000 -X "$method" -H "Accept: ${pv_accept:-application/json}")
  local h
  for h in ${pv_headers[@]+"${pv_headers[@]}"}; do args+=(-H "$h"); done
  if [ -n "$data" ]; then args+=(-H 'Content-Type: application/json' --data-binary "@$data"); fi
  while :; do
    tries=$((tries + 1))
    : >"$pv_tmp/body"
    : >"$pv_tmp/headers"
    status=$(curl "${args[@]}" "$url" 2>"$pv_tmp/curl-err") || status=000
    case "$status" in [0-9][0-9][0-9]) ;; *) status=000 ;; esac
    after=""
    case "$status" in
      429 | 5[0-9][0-9]) after=$(pv_retry_after) ;;
      403)
        after=$(pv_retry_after)
        [ -n "$after" ] || break
        ;;
      # A connection that failed may have reached the server: only a read is tried again.
      000) [ "$method" = GET ] || break ;;
      *) break ;;
    esac
    [ "$tries" -lt "$max_tries" ] || break
    wait=${after:-$((1 << (tries - 1)))}
    [ "$wait" -le 60 ] || break
    [ $((waited + wait)) -le "$max_wait" ] || break
    echo "planview: HTTP $status from $method ${url%%\?*}: trying again in ${wait}s ($tries of $max_tries tries)" >&2
    sleep "$wait"
    waited=$((waited + wait))
  done
  if [ "$status" = 000 ]; then
    cp "$pv_tmp/curl-err" "$pv_tmp/body"
  fi
  response=$(cat "$pv_tmp/body")
}

# pv_api_fail WHAT: the last call failed: say what, with the code and an
# inert excerpt of what the API answered, and exit 1.
pv_api_fail() {
  local hint=""
  case "$status" in
    000) hint=" (no answer)" ;;
    401) hint=" (the token was not accepted)" ;;
    403) hint=" (the token may not do this: a pull request from a fork? the review is in the job's summary or artifacts)" ;;
    404) hint=" (not found, or not visible to the token)" ;;
    429 | 5[0-9][0-9]) hint=" (still failing after retries)" ;;
  esac
  local excerpt
  excerpt=$(pv_excerpt "$pv_tmp/body")
  [ -z "$excerpt" ] || excerpt=$'\n'"planview: the API answered:"$'\n'"$excerpt"
  if [ "${pv_platform:-}" = github ]; then
    echo "::error::planview: $1 failed: HTTP $status$hint" >&2
  else
    echo "planview: error: $1 failed: HTTP $status$hint" >&2
  fi
  [ -z "$excerpt" ] || printf '%s\n' "${excerpt#$'\n'}" >&2
  exit 1
}

# pv_expect CODE WHAT: fail unless the last call answered CODE.
pv_expect() {
  [ "$status" = "$1" ] || pv_api_fail "$2"
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

# github_me: $me, the login whose comments are the bot's own:
# PLANVIEW_COMMENT_AUTHOR when set; else `GET /user`'s login (a personal
# token); else, when GitHub refuses `/user` to an integration's token (the
# job's GITHUB_TOKEN), `github-actions[bot]`. A `[bot]` login only counts
# on comments whose user.type is `Bot`.
github_me() {
  if [ -n "${PLANVIEW_COMMENT_AUTHOR:-}" ]; then
    me=$PLANVIEW_COMMENT_AUTHOR
    case "$me" in
      '' | *[!A-Za-z0-9_.\[\]-]*) pv_fail "PLANVIEW_COMMENT_AUTHOR is not a login: $(pv_inert "$me")" 2 ;;
    esac
    return
  fi
  http GET "$api/user"
  case "$status" in
    200) me=$(printf '%s' "$response" | jq -r 'if type == "object" then .login // empty else empty end') ||
      pv_fail "GET /user did not answer JSON" ;;
    403) me='github-actions[bot]' ;;
    *) pv_api_fail "asking GitHub who the token is (GET /user)" ;;
  esac
  case "$me" in
    '' | *[!A-Za-z0-9_.\[\]-]*) pv_fail "GET /user gave no usable login" ;;
  esac
}

# gitlab_me: $me, the id of the token's user (`GET /user`); a job token,
# which may not ask, fails (set PLANVIEW_GITLAB_TOKEN).
gitlab_me() {
  http GET "$api/user"
  [ "$status" = 200 ] || pv_api_fail "asking GitLab who the token is (GET /user; a CI_JOB_TOKEN may not: set PLANVIEW_GITLAB_TOKEN)"
  me=$(printf '%s' "$response" | jq -r 'if type == "object" and (.id | type) == "number" then .id else empty end') ||
    pv_fail "GET /user did not answer JSON"
  case "$me" in
    '' | *[!0-9]*) pv_fail "GET /user gave no user id" ;;
  esac
}

# The jq filters that pick the bot's own comments carrying $marker (the
# body's first line, exactly), from one page of GitHub's comments or GitLab's notes.
# shellcheck disable=SC2016 # jq's own variables
github_own='(.user.login // "" | ascii_downcase) == ($me | ascii_downcase)
  and (($me | endswith("[bot]") | not) or .user.type == "Bot")
  and ((.body // "") | split("\n")[0] | rtrimstr("\r")) == $m'
# shellcheck disable=SC2016
gitlab_own='(.author.id // -1 | tostring) == $me and (.system != true)
  and ((.body // "") | split("\n")[0] | rtrimstr("\r")) == $m'

# own_comments LIST_URL FILTER: writes $pv_tmp/own, one compact JSON object
# ({id, body}) a line, oldest first, for each comment on LIST_URL's pages
# that FILTER selects (with $me and $m = $marker). At most
# PLANVIEW_MAX_PAGES pages of 100.
own_comments() {
  local url=$1 filter=$2 page=1 count sep='?'
  local max_pages=${PLANVIEW_MAX_PAGES:-100}
  case "$url" in *\?*) sep='&' ;; esac
  : >"$pv_tmp/own"
  while :; do
    if [ "$page" -gt "$max_pages" ]; then
      pv_fail "more than $max_pages pages of 100 comments: stopped reading (PLANVIEW_MAX_PAGES)"
    fi
    http GET "$url${sep}per_page=100&page=$page"
    pv_expect 200 "listing the comments (page $page)"
    # One jq: the page's length first, then the comments selected.
    jq -c --arg me "$me" --arg m "$marker" \
      "if type == \"array\" then length, (.[] | select($filter) | {id, body}) else error(\"not a list\") end" \
      <"$pv_tmp/body" >"$pv_tmp/page" 2>/dev/null ||
      pv_fail "listing the comments (page $page) did not answer a JSON list"
    read -r count <"$pv_tmp/page"
    tail -n +2 "$pv_tmp/page" >>"$pv_tmp/own"
    [ "$count" -ge 100 ] || break
    page=$((page + 1))
  done
}

# pv_id JSON_LINE: the `.id` of one object, when it is a whole number; fails otherwise.
pv_id() {
  local id
  id=$(printf '%s' "$1" | jq -r '.id // empty')
  case "$id" in
    '' | *[!0-9]*) pv_fail "the API gave no usable comment id" ;;
  esac
  printf '%s' "$id"
}

# pv_split TEXT: TEXT's words in the array pv_words, split as xargs splits
# (blanks; '...', "..." and \ quote), never globbed nor expanded, so an input
# is never run nor turned into more words than it says.
pv_split() {
  pv_words=()
  [ -n "${1//[[:space:]]/}" ] || return 0
  local w
  printf '%s' "$1" | xargs printf '%s\0' >"$pv_split_tmp" 2>/dev/null || pv_fail "unbalanced quotes in: $(pv_inert "$1")" 2
  while IFS= read -r -d '' w; do pv_words+=("$w"); done <"$pv_split_tmp"
}

# pv_glob WORD: WORD's matches as the shell expands a pattern (sorted; no
# word splitting), appended to pv_files; WORD itself when nothing matches.
pv_glob() {
  local IFS='' matches
  # shellcheck disable=SC2206 # globbing wanted, word splitting off (IFS empty)
  matches=($1)
  if [ "${#matches[@]}" -gt 0 ]; then pv_files+=("${matches[@]}"); else pv_files+=("$1"); fi
}

# pv_plan_files TEXT: the files TEXT names, in the array pv_files: split as
# pv_split, each word with * ? [ expanded as the shell would (a pattern
# matching nothing is kept as it is, for planview to report). Each stays one
# file name, whatever it starts with: callers pass them after `--`.
pv_plan_files() {
  pv_split "$1"
  pv_files=()
  local w restore
  restore=$(shopt -p nullglob dotglob failglob || true)
  shopt -s nullglob
  shopt -u dotglob failglob
  for w in ${pv_words[@]+"${pv_words[@]}"}; do
    case "$w" in
      *[*?[]*) pv_glob "$w" ;;
      *) pv_files+=("$w") ;;
    esac
  done
  eval "$restore"
}

# Temporary files go when the script ends.
pv_cleanup() {
  rm -rf ${pv_tmp:+"$pv_tmp"} ${pv_split_tmp:+"$pv_split_tmp"}
}
pv_split_tmp=$(mktemp "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/planview-split.XXXXXX")
trap pv_cleanup EXIT

# read_fingerprint LIST_URL FILTER NAME: print the fingerprint (`sha256:...`)
# that the newest of the bot's own comments carrying $marker holds in its
# hidden header (the lines right after the marker; nothing further down,
# where a plan's own text could be): the line `<!-- planview-fingerprint
# sha256:... -->`, or with NAME the line `<!-- planview-fingerprint NAME
# sha256:... -->`. Fails when there is no such comment or line.
read_fingerprint() {
  local url=$1 filter=$2 name=$3 last header fp count
  own_comments "$url" "$filter"
  last=$(tail -n 1 "$pv_tmp/own")
  [ -n "$last" ] || pv_fail "no comment by $me starts with $(pv_inert "$marker")"
  printf '%s' "$last" | jq -r '.body' >"$pv_tmp/own-body"
  header=$(awk 'NR == 1 { next } /^<!-- planview-fingerprint / { print; next } { exit }' "$pv_tmp/own-body" | tr -d '\r')
  if [ -z "$name" ]; then
    count=$(printf '%s\n' "$header" | grep -c '^<!-- planview-fingerprint ' || true)
    [ "$count" -le 1 ] || pv_fail "the comment holds $count fingerprints (several plans): give the plan's NAME"
    fp=$(printf '%s\n' "$header" | sed -n -E 's/^<!-- planview-fingerprint (sha256:[0-9a-f]{64}) -->$/\1/p')
  else
    fp=$(printf '%s\n' "$header" | awk -v n="$name" '$1 == "<!--" && $2 == "planview-fingerprint" && $3 == n && NF == 5 && $5 == "-->" { print $4; exit }' |
      grep -E '^sha256:[0-9a-f]{64}$' || true)
  fi
  [ -n "$fp" ] || pv_fail "the comment by $me with $(pv_inert "$marker") holds no fingerprint${name:+ for $(pv_inert "$name")}"
  printf '%s\n' "$fp"
}

# pv_gate_args WORD...: the words of `planview comment`'s flags that `planview
# gate` takes too (the policy flags, --chdir, --locations, ...), in the array
# pv_gate_words: comment's own (--platform, --id, --summary-file,
# --outputs-file, each with its value) are left out.
pv_gate_args() {
  pv_gate_words=()
  local skip=0 w
  for w in "$@"; do
    if [ "$skip" -eq 1 ]; then
      skip=0
      continue
    fi
    case "$w" in
      --platform | --id | --summary-file | --outputs-file) skip=1 ;;
      --platform=* | --id=* | --summary-file=* | --outputs-file=*) ;;
      *) pv_gate_words+=("$w") ;;
    esac
  done
}
