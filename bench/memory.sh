#!/usr/bin/env bash
# Issue 31's memory benchmark: peak RSS, wall and CPU seconds of planview's
# commands on one plan, read from the file and through a pipe (`cat PLAN |
# planview CMD -`), min/median/max over RUNS runs each (GNU time around
# planview alone; the pipe's `cat` is not counted).
#
#   bench/memory.sh                                   # the 113 MB plan (gen_sensitive.py 10500 full), RUNS=3
#   PLAN=/tmp/tiny-1m.json bench/memory.sh            # python3 bench/gen_tiny.py 1000000 /tmp/tiny-1m.json
#   PV=/path/to/planview COMMIT=abc1234 bench/memory.sh   # a build made before (no cargo build)
#   CMDS="comment|fingerprint" bench/memory.sh         # only these (|-separated)
#   HOW=file bench/memory.sh                          # from the file only (default: "file pipe")
#   PLAN=/tmp/string-100m.json bench/memory.sh        # python3 bench/gen_string.py 100 /tmp/string-100m.json
#   SHAPES="tiny gb string" bench/memory.sh           # issue 31's three shapes, each generated here:
#       tiny   1,000,000 tiny creates (gen_tiny.py, 166 MB)
#       gb     a 1 GB plan (examples/gen_plan --size 1G), made for this run and deleted after it
#       string one 100 MB string (gen_string.py)
#     (GB_CMDS="summary|replace" narrows the 1 GB shape's commands; its RUNS are GB_RUNS, default RUNS)
#
# Generated plans stay under $BENCH_DIR (default /tmp/planview-bench): never commit them.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
DIR=${BENCH_DIR:-/tmp/planview-bench}
mkdir -p "$DIR"
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }
if [ -z "${PV:-}" ]; then
  cargo build --release --locked --bin planview >&2
  PV=target/release/planview
fi
export PV
if [ -n "${SHAPES:-}" ]; then
  for shape in $SHAPES; do
    case $shape in
      tiny)
        plan=$DIR/tiny-1000000.json
        [ -s "$plan" ] || python3 bench/gen_tiny.py 1000000 "$plan"
        SHAPES= PLAN=$plan "$0" ;;
      string)
        plan=$DIR/string-100m.json
        [ -s "$plan" ] || python3 bench/gen_string.py 100 "$plan"
        SHAPES= PLAN=$plan "$0" ;;
      gb)
        # A name of this run's own: two runs at once never write or delete each other's plan.
        plan=$DIR/plan-1g-$$.json
        [ -x target/release/examples/gen_plan ] || cargo build --release --locked --example gen_plan >&2
        target/release/examples/gen_plan --size 1G --seed 1 -o "$plan" >/dev/null
        SHAPES= PLAN=$plan RUNS=${GB_RUNS:-$RUNS} CMDS=${GB_CMDS:-${CMDS:-}} "$0" || true
        rm -f "$plan" ;;
      *) echo "unknown shape $shape (tiny, gb, string)" >&2; exit 2 ;;
    esac
    echo
  done
  exit 0
fi
PLAN=${PLAN:-$DIR/sensitive-full-10500.json}
[ -s "$PLAN" ] || python3 bench/gen_sensitive.py 10500 "$PLAN" full
bytes=$(stat -c %s "$PLAN")
cat "$PLAN" >/dev/null
fp=$("$PV" fingerprint "$PLAN" 2>/dev/null || true)
# The first change's address (read from summary's JSON as it streams: any plan size).
ADDR=${ADDR:-$("$PV" summary --format json "$PLAN" 2>/dev/null | awk -F'"' '/^  "resources": \[/{r=1} r && /^      "address": /{print $4; exit}' || true)}
ADDR=${ADDR:-x}

# run "ARGS" file|pipe [| head -20]: prints "wall cpu rss_kb" of planview in one run.
run() {
  local t args=$1 how=$2 tail=${3:-}
  t=$(mktemp)
  if [ "$how" = file ]; then
    bash -c "/usr/bin/time -o '$t' -f '%e %U %S %M' '$PV' $args '$PLAN' $tail" >/dev/null 2>&1 || true
  else
    bash -c "cat '$PLAN' | /usr/bin/time -o '$t' -f '%e %U %S %M' '$PV' $args - $tail" >/dev/null 2>&1 || true
  fi
  read -r w u s r < <(tail -n1 "$t"); rm -f "$t"
  awk -v w="$w" -v u="$u" -v s="$s" -v r="$r" 'BEGIN{printf "%.2f %.2f %d\n", w, u+s, r}'
}

# shellcheck source=bench/stats.sh
source bench/stats.sh

COMMIT=${COMMIT:-$(git rev-parse --short HEAD)}
echo "- $(date -u +%Y-%m-%dT%H:%MZ), commit $COMMIT, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $PLAN ($((bytes / 1000000)) MB), $RUNS runs each"
echo
echo "| command | input | peak RSS MB min / median / max | wall s min / median / max | CPU s min / median / max |"
echo "|---|---|---:|---:|---:|"
declare -a ROWS=(
  "summary|"
  "summary --format json|"
  "show|"
  "show|| head -20"
  "summary|| head -5"
  "show --address $ADDR|"
  "replace --format json|"
  "state --prior --format json|"
  "gate|"
  "gate --expect-fingerprint $fp|"
  "checks --format json|"
  "drift --format json|"
  "outputs --format json|"
  "moves|"
  "fingerprint|"
  "comment|"
)
for row in "${ROWS[@]}"; do
  args=${row%%|*}; tail=${row#*|}
  if [ -n "${CMDS:-}" ] && ! grep -qE "^(${CMDS})" <<<"$args"; then continue; fi
  for how in ${HOW:-file pipe}; do
    rss=() walls=() cpus=()
    for _ in $(seq "$RUNS"); do
      read -r w c r < <(run "$args" "$how" "$tail")
      walls+=("$w"); cpus+=("$c"); rss+=("$((r / 1024))")
    done
    read -r r1 r2 r3 < <(stats "${rss[@]}")
    read -r w1 w2 w3 < <(stats "${walls[@]}")
    read -r c1 c2 c3 < <(stats "${cpus[@]}")
    label="\`${args/sha256:*/sha256:…}${tail:+ $tail}\`"
    echo "| $label | $how | $r1 / $r2 / $r3 | $w1 / $w2 / $w3 | $c1 / $c2 / $c3 |"
  done
done
# `diff PLAN PLAN` (file; the second through a pipe).
if [ -z "${CMDS:-}" ] || grep -qE "^(${CMDS})" <<<"diff"; then
  for how in ${HOW:-file pipe}; do
    rss=() walls=() cpus=()
    for _ in $(seq "$RUNS"); do
      t=$(mktemp)
      if [ "$how" = file ]; then
        /usr/bin/time -o "$t" -f '%e %U %S %M' "$PV" diff "$PLAN" "$PLAN" >/dev/null 2>&1 || true
      else
        bash -c "cat '$PLAN' | /usr/bin/time -o '$t' -f '%e %U %S %M' '$PV' diff '$PLAN' -" >/dev/null 2>&1 || true
      fi
      read -r w u s r < <(tail -n1 "$t"); rm -f "$t"
      walls+=("$w"); cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.2f", u+s}')"); rss+=("$((r / 1024))")
    done
    read -r r1 r2 r3 < <(stats "${rss[@]}")
    read -r w1 w2 w3 < <(stats "${walls[@]}")
    read -r c1 c2 c3 < <(stats "${cpus[@]}")
    echo "| \`diff PLAN PLAN\` | $how | $r1 / $r2 / $r3 | $w1 / $w2 / $w3 | $c1 / $c2 / $c3 |"
  done
fi
