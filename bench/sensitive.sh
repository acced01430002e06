#!/usr/bin/env bash
# Time `summary` and `gate` on a plan where every resource carries a sensitive
# attribute (bench/gen_sensitive.py), for one or more planview binaries:
#
#   bench/sensitive.sh [BINARY...]     # default: target/release/planview
#   N=40000 RUNS=5 bench/sensitive.sh /tmp/planview-before target/release/planview
#
# Prints min/median/max wall seconds of RUNS runs and MB/s at the median.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-40000}
RUNS=${RUNS:-5}
DIR=${BENCH_DIR:-/tmp/planview-bench}
mkdir -p "$DIR"
PLAN="$DIR/sensitive-$N.json"
[ -f "$PLAN" ] || python3 bench/gen_sensitive.py "$N" "$PLAN"
BYTES=$(stat -c %s "$PLAN")
# shellcheck source=bench/stats.sh
source bench/stats.sh
[ $# -gt 0 ] || set -- target/release/planview
echo "| binary | command | min s | median s | max s | MB/s (median) |"
echo "|---|---|---:|---:|---:|---:|"
for bin in "$@"; do
  for cmd in summary gate; do
    times=()
    for _ in $(seq "$RUNS"); do
      t0=$(date +%s.%N)
      "$bin" "$cmd" --format json "$PLAN" >/dev/null || true
      t1=$(date +%s.%N)
      times+=("$(echo "$t1 - $t0" | bc)")
    done
    read -r min med max < <(stats "${times[@]}")
    printf '| %s | %s | %.2f | %.2f | %.2f | %.0f |\n' "$bin" "$cmd" "$min" "$med" "$max" "$(echo "$BYTES / 1000000 / $med" | bc -l)"
  done
done
