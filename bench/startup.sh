#!/usr/bin/env bash
# Issue 14's start-up figure: `planview summary` on a 10 KB plan
# (testdata/real/replace/plan.json), RUNS rounds of BATCH runs each; prints
# min/median/max milliseconds per run (wall, including process start).
#
#   bench/startup.sh            # RUNS=7 BATCH=100
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-7}
BATCH=${BATCH:-100}
[ -n "${PV:-}" ] || cargo build --release --locked --bin planview >&2
PV=${PV:-target/release/planview}
F=testdata/real/replace/plan.json
per_run=()
for _ in $(seq "$RUNS"); do
  t0=$(date +%s%N)
  for _ in $(seq "$BATCH"); do "$PV" summary "$F" >/dev/null; done
  t1=$(date +%s%N)
  per_run+=("$(awk -v d=$((t1 - t0)) -v n="$BATCH" 'BEGIN{printf "%.3f", d/n/1e6}')")
done
# shellcheck source=bench/stats.sh
source bench/stats.sh
read -r min med max < <(stats "${per_run[@]}")
# The same loop over `true`: what starting any process costs here.
t0=$(date +%s%N); for _ in $(seq "$BATCH"); do /bin/true; done; t1=$(date +%s%N)
echo "- $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- \`planview summary\` on $(stat -c %s "$F") bytes, ms per run over $RUNS rounds of $BATCH: min $min, median $med, max $max (\`/bin/true\`: $(awk -v d=$((t1 - t0)) -v n="$BATCH" 'BEGIN{printf "%.3f", d/n/1e6}') ms)"
