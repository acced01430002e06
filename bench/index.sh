#!/usr/bin/env bash
# Issue 31's benchmark: planview's commands against the serde `IgnoredAny`
# skip-only pass (examples/skip_pass.rs, the yardstick) over the same file,
# runs interleaved (skip, command, skip, command, ...) so that a busy machine
# slows both alike. For each command: min/median/max wall seconds, median CPU
# seconds (user + system: a second thread can hide work from wall time), the
# median of the per-round ratios wall(command)/wall(skip) and of
# CPU(command)/CPU(skip), and peak RSS.
#
#   bench/index.sh                         # the 113 MB plan (gen_sensitive.py 10500 full), RUNS=5
#   RUNS=7 PLAN=/tmp/other.json bench/index.sh
#   PV=/path/to/planview COMMIT=abc1234 bench/index.sh   # a build made before (no cargo build; name its commit)
#   CMDS_ONLY='summary --format json|comment' bench/index.sh  # some of the commands
#
# `diff` compares PLAN2 (default: PLAN with one attribute of one resource
# changed, made beside it) with PLAN; its skip pass reads both files.
#
# On a shared machine read the ratios and CPU seconds, not the wall seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
DIR=${BENCH_DIR:-/tmp/planview-bench}
PLAN=${PLAN:-$DIR/sensitive-full-10500.json}
mkdir -p "$DIR"
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }
if [ -z "${PV:-}" ]; then
  cargo build --release --locked --bin planview --example skip_pass >&2
  PV=target/release/planview
fi
SKIP=${SKIP:-target/release/examples/skip_pass}
[ -x "$SKIP" ] || cargo build --release --locked --example skip_pass >&2
[ -s "$PLAN" ] || python3 bench/gen_sensitive.py 10500 "$PLAN" full
bytes=$(stat -c %s "$PLAN")
PLAN2=${PLAN2:-${PLAN%.json}-other.json}
[ -s "$PLAN2" ] || sed 's/"new-7"/"newer-7"/g' "$PLAN" >"$PLAN2"
cat "$PLAN" "$PLAN2" >/dev/null


# shellcheck source=bench/stats.sh
source bench/stats.sh

COMMIT=${COMMIT:-$(git rev-parse --short HEAD)}
echo "- $(date -u +%Y-%m-%dT%H:%MZ), commit $COMMIT, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $PLAN ($((bytes / 1000000)) MB), $RUNS interleaved rounds"
echo
echo "| command | wall min s | wall median s | wall max s | CPU median s | wall / skip (median) | CPU / skip (median) | peak RSS MB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
ADDR=${ADDR:-aws_x.r7}
# Every command issue 31 names (CMDS="summary --format json|fingerprint" picks some).
declare -a CMDS=(
  "summary --format json"
  "gate --format json"
  "checks --format json"
  "drift --format json"
  "replace --format json"
  "outputs --format json"
  "state --prior --format json"
  "show --format json --address $ADDR"
  "show"
  "moves"
  "fingerprint"
  "comment"
  "diff $PLAN2"
)
if [ -n "${CMDS_ONLY:-}" ]; then IFS='|' read -r -a CMDS <<<"$CMDS_ONLY"; fi
skip_walls=() skip_cpus=() skip2_walls=() skip2_cpus=()
declare -A walls cpus ratios cratios rss
for _ in $(seq "$RUNS"); do
  for i in "${!CMDS[@]}"; do
    # `diff` reads two files: so does its skip pass.
    case "${CMDS[$i]}" in diff\ *) skipped="$PLAN2 $PLAN" ;; *) skipped="$PLAN" ;; esac
    read -r sw sc _ _ < <(timed "$SKIP $skipped")
    if [ "$skipped" = "$PLAN" ]; then skip_walls+=("$sw"); skip_cpus+=("$sc"); else skip2_walls+=("$sw"); skip2_cpus+=("$sc"); fi
    read -r w c r _ < <(timed "$PV ${CMDS[$i]} $PLAN")
    walls[$i]="${walls[$i]:-} $w"; cpus[$i]="${cpus[$i]:-} $c"
    ratios[$i]="${ratios[$i]:-} $(awk -v a="$w" -v b="$sw" 'BEGIN{printf "%.3f", a/(b>0?b:0.001)}')"
    cratios[$i]="${cratios[$i]:-} $(awk -v a="$c" -v b="$sc" 'BEGIN{printf "%.3f", a/(b>0?b:0.01)}')"
    [ "$r" -gt "${rss[$i]:-0}" ] && rss[$i]=$r
  done
done
read -r a b c < <(stats "${skip_walls[@]}")
read -r _ sc _ < <(stats "${skip_cpus[@]}")
echo "| skip-only pass (serde IgnoredAny) | $a | $b | $c | $sc | 1.00x | 1.00x | - |"
if [ "${#skip2_walls[@]}" -gt 0 ]; then
  read -r a b c < <(stats "${skip2_walls[@]}")
  read -r _ sc _ < <(stats "${skip2_cpus[@]}")
  echo "| skip-only pass over both files (\`diff\`'s yardstick) | $a | $b | $c | $sc | 1.00x | 1.00x | - |"
fi
for i in "${!CMDS[@]}"; do
  # shellcheck disable=SC2086
  read -r a b c < <(stats ${walls[$i]})
  # shellcheck disable=SC2086
  read -r _ cm _ < <(stats ${cpus[$i]})
  # shellcheck disable=SC2086
  read -r _ rm _ < <(stats ${ratios[$i]})
  # shellcheck disable=SC2086
  read -r _ crm _ < <(stats ${cratios[$i]})
  printf '| `%s` | %s | %s | %s | %s | %.2fx | %.2fx | %.0f |\n' "${CMDS[$i]}" "$a" "$b" "$c" "$cm" "$rm" "$crm" "$(awk -v r="${rss[$i]}" 'BEGIN{print r/1024}')"
done
