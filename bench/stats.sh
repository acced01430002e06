# shellcheck shell=bash
# Shared by the benchmark scripts (sourced, not run): the one place that
# turns RUNS figures into min, median and max.
#
# stats VALUES...: prints "min median max" (numeric sort, so "0.5" and "12" order
# as numbers; the median of an even count is the lower middle value).
stats() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END{printf "%s %s %s\n", v[1], v[int((NR+1)/2)], v[NR]}'; }
