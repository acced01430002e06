#!/usr/bin/env bash
# Benchmark `planview diff` and `planview fingerprint` against two `summary` runs.
#
#   bench/diff.sh                  # 200 MB plans, 5 runs each, markdown table on stdout
#   SIZE=1G RUNS=3 bench/diff.sh
#   BENCH_DIR=/var/tmp/pv bench/diff.sh   # where plans are generated (default /tmp/planview-bench)
#   PV=/path/to/planview bench/diff.sh    # measure another build (no cargo build)
#
# OLD is `examples/gen_plan.rs` (seed 1); NEW is OLD with two values of its
# `resource_changes` changed (one resource differs: `diff` reads the entries
# that differ a third time). Figures are min / median / max wall seconds of
# RUNS runs and the largest peak RSS (GNU time). Plans are cached, never committed.
set -euo pipefail

cd "$(dirname "$0")/.."
SIZE=${SIZE:-200M}
DIR=${BENCH_DIR:-/tmp/planview-bench}
RUNS=${RUNS:-5}
TARGET=${CARGO_TARGET_DIR:-target}
mkdir -p "$DIR"

if [ ! -x /usr/bin/time ]; then
  echo "bench: /usr/bin/time (GNU time) is needed for peak RSS: apt-get install time" >&2
  exit 2
fi
if [ -z "${PV:-}" ]; then
  echo "building release..." >&2
  cargo build --release --locked --bin planview --example gen_plan >&2
  PV="$TARGET/release/planview"
fi
GEN="$TARGET/release/examples/gen_plan"

OLD="$DIR/plan-$SIZE-seed1.json"
NEW="$DIR/plan-$SIZE-seed1-changed.json"
[ -s "$OLD" ] || { [ -x "$GEN" ] || cargo build --release --locked --example gen_plan >&2; "$GEN" --size "$SIZE" --seed 1 -o "$OLD"; }
if [ ! -s "$NEW" ]; then
  python3 - "$OLD" "$NEW" <<'EOF'
import sys
d = open(sys.argv[1], 'rb').read()
at = d.index(b'"resource_changes":')
for old, new in [(b'"volume_size":16', b'"volume_size":17'), (b'"volume_size":32', b'"volume_size":64')]:
    at = d.index(old, at)
    d = d[:at] + new + d[at + len(old):]
open(sys.argv[2], 'wb').write(d)
EOF
fi
BYTES=$(stat -c %s "$OLD")
# shellcheck source=bench/stats.sh
source bench/stats.sh

# measure LABEL -- command...: one table row (min/median/max wall, max peak RSS, exit code)
measure() {
  local label=$1; shift 2
  local walls=() rss=0 rc=0 wall kb
  for _ in $(seq "$RUNS"); do
    read -r wall _ kb rc < <(timed "$*")
    walls+=("$wall")
    [ "$kb" -gt "$rss" ] && rss=$kb
  done
  local a b c
  read -r a b c < <(stats "${walls[@]}")
  awk -v l="$label" -v a="$a" -v m="$b" -v c="$c" -v r="$rss" -v rc="$rc" -v b="$BYTES" \
    'BEGIN { printf "| %s | %.2f | %.2f | %.2f | %.1f | %.2fx | %s |\n", l, a, m, c, r / 1024, r * 1024 / b, rc }'
}

echo "- date: $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "- machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- plans: $SIZE ($BYTES bytes each), $RUNS runs per case"
echo
echo "| command | min s | median s | max s | peak RSS MB | RSS / one input | exit |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
measure "two \`summary\` runs (OLD, then NEW)" -- "$PV summary $OLD && $PV summary $NEW"
measure "\`fingerprint\` OLD" -- "$PV fingerprint $OLD"
measure "\`diff\` OLD OLD (the same)" -- "$PV diff $OLD $OLD"
measure "\`diff\` OLD NEW (one resource differs)" -- "$PV diff $OLD $NEW"
echo
echo "- load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
