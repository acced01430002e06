#!/usr/bin/env bash
# The HTML page against JSON (issue 30): `show --format html`, `show --format json` and
# `summary --format json` (which reads no values) on the 5,000-change plan and the 113 MB
# plan (bench/gen_sensitive.py N FILE full; N=5000 and N=10500), interleaved, RUNS rounds:
# wall and CPU seconds and peak RSS (min/median/max), and the size of each output. Then the
# page of each plan in headless Chromium (bench/html_browser.py: load, script, filter,
# search, scroll in ms, min/median/max of BROWSER_RUNS rounds; BROWSER_RUNS=0 skips it).
#
#   bench/html.sh                      # release build, RUNS=3, BROWSER_RUNS=3
#   RUNS=5 BENCH_DIR=/var/tmp/pv bench/html.sh
#   PLANVIEW=target/debug/planview bench/html.sh
#
# Generated plans are cached in BENCH_DIR (default /tmp/planview-bench-html), never committed.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${BENCH_DIR:-/tmp/planview-bench-html}
RUNS=${RUNS:-3}
BROWSER_RUNS=${BROWSER_RUNS:-3}
mkdir -p "$DIR"
if [ -z "${PLANVIEW:-}" ]; then
  cargo build --release --locked >&2
  PLANVIEW=${CARGO_TARGET_DIR:-target}/release/planview
fi
if [ ! -x /usr/bin/time ]; then
  echo "bench: /usr/bin/time (GNU time) is needed: apt-get install time" >&2
  exit 2
fi

# shellcheck source=bench/stats.sh
source bench/stats.sh
slashed() { # numbers on stdin -> "min / median / max"
  local a b c
  # shellcheck disable=SC2046 # one number a line
  read -r a b c < <(stats $(cat))
  printf '%s / %s / %s' "$a" "$b" "$c"
}

args() { # NAME: the command's arguments
  case "$1" in
    summary) echo "summary --format json" ;;
    *) echo "show --format $1" ;;
  esac
}

echo "commit $(git rev-parse --short HEAD), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $RUNS rounds, $PLANVIEW"
echo
echo "| plan | command | wall s (min / median / max) | CPU s | peak RSS MB | output bytes |"
echo "|---|---|---|---|---|---|"
for n in 5000 10500; do
  plan="$DIR/plan-$n.json"
  [ -s "$plan" ] || python3 bench/gen_sensitive.py "$n" "$plan" full
  for f in summary json html; do : >"$DIR/$n.$f.times"; done
  for _ in $(seq "$RUNS"); do
    for f in summary json html; do
      # shellcheck disable=SC2046 # the arguments split on purpose
      /usr/bin/time -f "%e %U %S %M" -o "$DIR/t" "$PLANVIEW" $(args "$f") "$plan" >"$DIR/out-$n.$f" 2>/dev/null
      cat "$DIR/t" >>"$DIR/$n.$f.times"
    done
  done
  for f in summary json html; do
    t="$DIR/$n.$f.times"
    wall=$(awk '{print $1}' "$t" | slashed)
    cpu=$(awk '{print $2 + $3}' "$t" | slashed)
    rss=$(awk '{printf "%.1f\n", $4 / 1024}' "$t" | slashed)
    echo "| $(basename "$plan") ($(du -m "$plan" | cut -f1) MB, $n changes) | $(args "$f") | $wall | $cpu | $rss | $(wc -c <"$DIR/out-$n.$f") |"
  done
done
if [ "$BROWSER_RUNS" -gt 0 ]; then
  for n in 5000 10500; do
    echo
    python3 bench/html_browser.py "$DIR/out-$n.html" "$BROWSER_RUNS"
  done
fi
