#!/usr/bin/env bash
# Benchmark planview on generated plans of 20 MB, 200 MB and 1 GB.
#
#   bench/run.sh                 # build release, generate, measure, print a markdown table
#   SIZES="20M 200M" bench/run.sh
#   BENCH_DIR=/var/tmp/pv bench/run.sh   # where plans are generated (default /tmp/planview-bench)
#   RUNS=3 bench/run.sh          # runs per case; the fastest is reported (default 3)
#
# Generated plans are cached in BENCH_DIR (same seed and size = same file) and never
# committed. Needs /usr/bin/time (GNU time) for peak RSS; jq is installed with apt
# when missing and possible, and measured alongside.
set -euo pipefail

cd "$(dirname "$0")/.."
SIZES=${SIZES:-"20M 200M 1G"}
DIR=${BENCH_DIR:-/tmp/planview-bench}
RUNS=${RUNS:-3}
SEED=${SEED:-1}
TARGET=${CARGO_TARGET_DIR:-target}
mkdir -p "$DIR"

if [ ! -x /usr/bin/time ]; then
  echo "bench: /usr/bin/time (GNU time) is needed for peak RSS: apt-get install time" >&2
  exit 2
fi
if ! command -v jq >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    (apt-get install -y -qq jq >/dev/null 2>&1 || (apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq jq >/dev/null 2>&1)) || true
  fi
fi
HAVE_JQ=$(command -v jq >/dev/null 2>&1 && echo 1 || echo 0)

echo "building release..." >&2
cargo build --release --locked --bin planview --example gen_plan >&2
PV="$TARGET/release/planview"
GEN="$TARGET/release/examples/gen_plan"

has_cmd() { "$PV" "$1" --help >/dev/null 2>&1; }

# measure LABEL INPUT_BYTES -- command...   (fastest of RUNS; prints one table row)
measure() {
  local label=$1 bytes=$2; shift 3
  local best_wall="" best_line="" out rc
  for _ in $(seq "$RUNS"); do
    out=$(mktemp)
    set +e
    /usr/bin/time -o "$out" -f "%e %U %S %M" bash -c "$*" >/dev/null 2>"$out.err"
    rc=$?
    set -e
    read -r wall user sys rss_kb < <(tail -n1 "$out")
    rm -f "$out" "$out.err"
    if [ -z "$best_wall" ] || awk "BEGIN{exit !($wall < $best_wall)}"; then
      best_wall=$wall
      best_line=$(awk -v l="$label" -v b="$bytes" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss_kb" -v rc="$rc" 'BEGIN{
        mb=b/1e6; ww=(w>0?w:0.005); cpu=u+s;
        printf "| %s | %.0f | %.2f | %.0f | %.2f | %.0f | %.1f | %.2fx | %s |", l, mb, w, mb/ww, cpu, (cpu>0?mb/cpu:0), r/1024, (r*1024)/b, rc }')
    fi
  done
  echo "$best_line"
}

echo "## planview benchmark"
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "- machine: $(nproc) cores, $(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n1), $(free -g | awk '/^Mem:/{print $2}') GB RAM"
echo "- load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- jq: $([ "$HAVE_JQ" = 1 ] && jq --version || echo 'not installed')"
echo
echo "| command | input MB | wall s | MB/s (wall) | CPU s | MB/s (CPU) | peak RSS MB | RSS / input | exit |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"

for size in $SIZES; do
  f="$DIR/plan-$size-seed$SEED.json"
  if [ ! -s "$f" ] || ! grep -q sample_address "$f.expect" 2>/dev/null; then
    echo "generating $f..." >&2
    "$GEN" --size "$size" --seed "$SEED" -o "$f" --expect "$f.expect"
  fi
  bytes=$(stat -c %s "$f")
  cat "$f" >/dev/null # into the page cache
  measure "\`summary\` file ($size)" "$bytes" -- "$PV summary --format json $f"
  measure "\`summary\` table ($size)" "$bytes" -- "$PV summary --color never $f"
  measure "\`summary\` pipe ($size)" "$bytes" -- "cat $f | $PV summary --format json"
  for c in gate checks replace drift; do
    if has_cmd "$c"; then
      measure "\`$c\` file ($size)" "$bytes" -- "$PV $c --format json $f"
    fi
  done
  if has_cmd show; then
    addr=$(sed -n 's/.*"sample_address":"\(\([^"\\]\|\\.\)*\)".*/\1/p' "$f.expect" | sed 's/\\"/"/g' || true)
    measure "\`show --address\` file ($size)" "$bytes" -- "$PV show --all --format json --address '$addr' $f"
  fi
  if [ "$HAVE_JQ" = 1 ]; then
    measure "jq delete count ($size)" "$bytes" -- "jq '[.resource_changes[] | select(.change.actions | index(\"delete\"))] | length' $f"
  fi
done

# Start-up plus a 10 KB plan: mean of 200 runs.
small="$DIR/plan-10K.json"
[ -s "$small" ] || "$GEN" --size 10K --seed "$SEED" -o "$small"
start=$(date +%s%N)
for _ in $(seq 200); do "$PV" summary --format json "$small" >/dev/null; done
end=$(date +%s%N)
echo
echo "- start-up + 10 KB plan (\`summary --format json\`, $(stat -c %s "$small") bytes): $(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.2f", (b-a)/200/1e6}') ms per run (mean of 200)"
echo "- load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
