#!/usr/bin/env bash
# A/B of two planview binaries on one command, runs interleaved (so a busy
# machine slows both alike): median wall and CPU (user + system) seconds and
# peak RSS of each. On a shared machine compare CPU, or instruction counts:
#   valgrind --tool=callgrind BIN summary --format json plan.json >/dev/null
#
#   bench/ab.sh OLD_BIN NEW_BIN 'PV summary --format json /tmp/plan.json'   # RUNS=5
#
# `PV` in the command stands for each binary in turn.
set -euo pipefail
# shellcheck source=bench/stats.sh
source "$(dirname "$0")/stats.sh"
[ $# -eq 3 ] || { echo "usage: $0 OLD_BIN NEW_BIN 'PV command ...'" >&2; exit 2; }
RUNS=${RUNS:-5}
old=$1 new=$2 cmd=$3
declare -A W C R
for _ in $(seq "$RUNS"); do
  for which in old new; do
    bin=$old; [ "$which" = new ] && bin=$new
    read -r w c r _ < <(timed "${cmd//PV/$bin}")
    W[$which]="${W[$which]:-} $w"
    C[$which]="${C[$which]:-} $c"
    [ "$r" -gt "${R[$which]:-0}" ] && R[$which]=$r
  done
done
median() { local m; read -r _ m _ < <(stats "$@"); echo "$m"; }
echo "load $(cut -d' ' -f1-3 /proc/loadavg): ${cmd}"
for which in old new; do
  # shellcheck disable=SC2086 # the figures split on purpose
  printf '%s: wall %s s, CPU %s s (median of %s), peak RSS %.1f MB\n' "$which" \
    "$(median ${W[$which]})" "$(median ${C[$which]})" "$RUNS" "$(awk -v r="${R[$which]}" 'BEGIN{print r/1024}')"
done
