# shellcheck shell=bash
# Shared by the benchmark scripts (sourced, not run): the one place that
# turns RUNS figures into min, median and max.
#
# stats VALUES...: prints "min median max" (numeric sort, so "0.5" and "12" order
# as numbers; the median of an even count is the lower middle value).
stats() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END{printf "%s %s %s\n", v[1], v[int((NR+1)/2)], v[NR]}'; }

# timed COMMAND: runs `bash -c COMMAND` once (its output thrown away) and prints
# "wall cpu rss_kb rc": wall seconds to the 0.1 ms (GNU time's %e has 10 ms
# steps), CPU seconds (user + system: a second thread can hide work from the
# wall clock), peak RSS in KB (GNU time), and the command's exit code.
timed() {
  local t start end rc u s r
  t=$(mktemp)
  start=$EPOCHREALTIME
  /usr/bin/time -o "$t" -f "%U %S %M" bash -c "$1" >/dev/null 2>&1 && rc=0 || rc=$?
  end=$EPOCHREALTIME
  read -r u s r < <(tail -n1 "$t")
  rm -f "$t"
  awk -v a="$start" -v b="$end" -v u="$u" -v s="$s" -v r="$r" -v rc="$rc" 'BEGIN{printf "%.4f %.2f %d %d\n", b-a, u+s, r, rc}'
}
