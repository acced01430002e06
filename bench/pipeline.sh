#!/usr/bin/env bash
# Issue 14's benchmark: every command on a plan where every resource changes and
# carries a sensitive attribute, as `show -json` writes it (planned_values,
# prior_state, drift; bench/gen_sensitive.py ... full), file and pipe, against
# a skip-only pass (serde IgnoredAny, examples/skip_pass.rs) and jq's
# delete-count one-liner, measured by the same script.
#
#   bench/pipeline.sh                  # 110 MB plan, RUNS=5
#   SIZES="110M 1G" bench/pipeline.sh  # and a 1 GB plan
#
# Prints one markdown table: min/median/max wall seconds of RUNS runs, MB/s at
# the median, the median over the skip-only pass, and peak RSS (max over runs).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
SIZES=${SIZES:-110M}
DIR=${BENCH_DIR:-/tmp/planview-bench}
mkdir -p "$DIR"
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }
cargo build --release --locked --bin planview --example skip_pass >&2
PV=target/release/planview
SKIP=target/release/examples/skip_pass

# measure LABEL BYTES COMMAND... (bench/measure.sh)
source bench/measure.sh

echo "- $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| command | min s | median s | max s | MB/s (median) | / skip-only | peak RSS MB |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for size in $SIZES; do
  case $size in 110M) n=10500 ;; 1G) n=100000 ;; *) echo "size 110M or 1G" >&2; exit 2 ;; esac
  f="$DIR/sensitive-full-$n.json"
  [ -s "$f" ] || python3 bench/gen_sensitive.py "$n" "$f" full
  bytes=$(stat -c %s "$f")
  cat "$f" >/dev/null
  echo "| **$size** ($((bytes / 1000000)) MB) | | | | | | |"
  BASE=""
  measure "skip-only pass (serde IgnoredAny)" "$bytes" "$SKIP $f"; BASE=$MED
  for cmd in summary gate checks drift replace outputs "state --prior"; do
    measure "\`$cmd\`" "$bytes" "$PV $cmd --format json $f"
  done
  measure "\`summary\` (pipe)" "$bytes" "cat $f | $PV summary --format json"
  measure "\`gate\` (pipe)" "$bytes" "cat $f | $PV gate --format json"
  measure "\`show --address aws_x.r7\`" "$bytes" "$PV show --format json --address aws_x.r7 $f"
  measure "\`show\` (every change)" "$bytes" "$PV show --format json $f"
  measure "\`moves\`" "$bytes" "$PV moves --format json $f"
  if command -v jq >/dev/null; then
    measure "jq delete count" "$bytes" "jq '[.resource_changes[] | select(.change.actions | index(\"delete\"))] | length' $f"
  fi
done
