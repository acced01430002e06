# Shared by the benchmark scripts (sourced, not run): RUNS runs of a command.
# shellcheck source=bench/stats.sh
source "$(dirname "${BASH_SOURCE[0]}")/stats.sh"
#
# measure LABEL BYTES COMMAND...: min/median/max wall (seconds, to the ms), peak RSS; echoes "median" in $MED.
measure() {
  local label=$1 bytes=$2; shift 2
  local walls=() rss=0 w r
  for _ in $(seq "$RUNS"); do
    read -r w _ r _ < <(timed "$*")
    walls+=("$w"); [ "$r" -gt "$rss" ] && rss=$r
  done
  local min max
  read -r min MED max < <(stats "${walls[@]}")
  local ratio="-"
  [ -n "${BASE:-}" ] && ratio=$(awk -v m="$MED" -v b="$BASE" 'BEGIN{printf "%.2fx", (m>0?m:0.01)/(b>0?b:0.01)}')
  awk -v l="$label" -v b="$bytes" -v mi="$min" -v me="$MED" -v ma="$max" -v r="$rss" -v x="$ratio" \
    'BEGIN{m=(me>0?me:0.01); printf "| %s | %.3f | %.3f | %.3f | %.0f | %s | %.0f |\n", l, mi, me, ma, b/1e6/m, x, r/1024}'
}
