#!/usr/bin/env bash
# Issue 17's benchmark: 500 roots of about 200 KB each (a directory tree, as a
# monorepo's plans), and one NDJSON stream of the same 500 plans (as
# `terragrunt run --all show -json` prints them), through `summary` and `gate`,
# against the skip-only pass (serde IgnoredAny over every document,
# examples/skip_pass.rs) measured by the same script.
#
#   bench/roots.sh            # RUNS=5
#
# Prints min/median/max wall seconds, the median over the skip-only pass, and
# peak RSS (max over the runs).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
N=${N:-500}
DIR=${BENCH_DIR:-/tmp/planview-bench}/roots-$N
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }
[ -n "${PV:-}" ] || cargo build --release --locked --bin planview --example skip_pass --example gen_plan >&2
PV=${PV:-target/release/planview}
SKIP=target/release/examples/skip_pass
GEN=target/release/examples/gen_plan
if [ ! -s "$DIR/all.ndjson" ]; then
  rm -rf "$DIR"; mkdir -p "$DIR/tree"
  for i in $(seq "$N"); do
    d="$DIR/tree/team-$((i % 10))/root-$i"
    mkdir -p "$d"
    "$GEN" --size 200K --seed "$i" -o "$d/plan.json" >/dev/null
    cat "$d/plan.json" >>"$DIR/all.ndjson"; echo >>"$DIR/all.ndjson"
  done
fi
files=$(find "$DIR/tree" -name plan.json | sort)
bytes=$(stat -c %s "$DIR/all.ndjson")

# measure LABEL BYTES COMMAND... (bench/measure.sh)
source bench/measure.sh

echo "- $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- $N roots, $((bytes / 1000000)) MB in all"
echo
echo "| command | min s | median s | max s | MB/s (median) | / skip-only | peak RSS MB |"
echo "|---|---:|---:|---:|---:|---:|---:|"
BASE=""
measure "skip-only pass, $N files" "$bytes" "$SKIP $(echo $files)"; BASE=$MED
measure "\`summary DIR\`" "$bytes" "$PV summary --format json $DIR/tree"
measure "\`gate DIR\`" "$bytes" "$PV gate --format json $DIR/tree"
BASE=""
measure "skip-only pass, NDJSON" "$bytes" "$SKIP $DIR/all.ndjson"; BASE=$MED
measure "\`summary\` < NDJSON" "$bytes" "$PV summary --format json < $DIR/all.ndjson"
measure "\`gate\` < NDJSON" "$bytes" "$PV gate --format json < $DIR/all.ndjson"
