#!/usr/bin/env bash
# Issue 17's benchmark: 500 roots of about 200 KB each (a directory tree, as a
# monorepo's plans), and one NDJSON stream of the same 500 plans (as
# `terragrunt run --all show -json` prints them), through `summary` and `gate`,
# against the skip-only pass (serde IgnoredAny over every document,
# examples/skip_pass.rs) measured by the same script.
#
#   bench/roots.sh            # RUNS=5
#
# Prints min/median/max wall seconds, CPU seconds (user+system) and peak RSS,
# and the medians of wall and CPU over those of the skip-only pass.
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

# shellcheck source=bench/stats.sh
source bench/stats.sh

# measure LABEL COMMAND...: RUNS runs; a row of min/median/max wall, CPU and
# peak RSS, and the medians over BASE_W/BASE_C (the skip-only pass's).
measure() {
  local label=$1; shift
  local walls=() cpus=() rss=() w c r
  for _ in $(seq "$RUNS"); do
    read -r w c r _ < <(timed "$*")
    walls+=("$w"); cpus+=("$c"); rss+=("$((r / 1024))")
  done
  read -r w1 W w3 < <(stats "${walls[@]}")
  read -r c1 C c3 < <(stats "${cpus[@]}")
  read -r r1 r2 r3 < <(stats "${rss[@]}")
  local xw="-" xc="-"
  if [ -n "${BASE_W:-}" ]; then
    xw=$(awk -v m="$W" -v b="$BASE_W" 'BEGIN{printf "%.2fx", m/(b>0?b:0.001)}')
    xc=$(awk -v m="$C" -v b="$BASE_C" 'BEGIN{printf "%.2fx", m/(b>0?b:0.01)}')
  fi
  echo "| $label | $w1 / $W / $w3 | $xw | $c1 / $C / $c3 | $xc | $r1 / $r2 / $r3 |"
}

echo "- $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- $N roots, $((bytes / 1000000)) MB in all"
echo
echo "| command | wall s min / median / max | wall / skip-only | CPU s min / median / max | CPU / skip-only | peak RSS MB min / median / max |"
echo "|---|---:|---:|---:|---:|---:|"
BASE_W="" BASE_C=""
measure "skip-only pass, $N files" "$SKIP $(echo $files)"; BASE_W=$W BASE_C=$C
measure "\`summary DIR\`" "$PV summary --format json $DIR/tree"
measure "\`summary DIR\` (table)" "$PV summary $DIR/tree"
measure "\`gate DIR\`" "$PV gate --format json $DIR/tree"
BASE_W="" BASE_C=""
measure "skip-only pass, NDJSON" "$SKIP $DIR/all.ndjson"; BASE_W=$W BASE_C=$C
measure "\`summary\` < NDJSON" "$PV summary --format json < $DIR/all.ndjson"
measure "\`gate\` < NDJSON" "$PV gate --format json < $DIR/all.ndjson"
