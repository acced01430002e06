#!/usr/bin/env bash
# Issue 25: what a clean `cargo test --locked` costs (the CI builds clean).
# Each run builds the tests from an empty target directory (`--no-run`, with
# `--timings`), then runs them, and prints wall and CPU (user + sys) of both
# halves and the load average before each; min/median/max over RUNS.
#   RUNS=1 bench/test-build.sh            # default RUNS=1 (a run is minutes)
#   TARGET=/var/tmp/pv-clean bench/test-build.sh
# Built as .ci/run builds: CARGO_INCREMENTAL=0 (a clean build gains nothing
# from incremental data); CARGO_INCREMENTAL=1 measures the default.
# CPU seconds (user + sys) are the figure that survives a loaded machine;
# wall time is the machine's. The load average is printed before each half.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-1}
target=${TARGET:-$PWD/target-clean}
export CARGO_INCREMENTAL=${CARGO_INCREMENTAL:-0}
commit=$(git rev-parse --short HEAD)$(git diff --quiet || echo "+dirty")
timefile=$(mktemp)
trap 'rm -f "$timefile"' EXIT
echo "commit $commit, $(nproc) cores, RUNS=$runs, CARGO_INCREMENTAL=$CARGO_INCREMENTAL, target $target"

stats() { # label, then numbers: min/median/max
  local label=$1
  shift
  printf '%s\n' "$@" | sort -n | awk -v l="$label" '{a[NR]=$1} END {printf "%-22s min %8.1f  median %8.1f  max %8.1f\n", l, a[1], a[int((NR+1)/2)], a[NR]}'
}

declare -a bw bc rw rc
for i in $(seq "$runs"); do
  rm -rf "$target"
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f '%e %U %S' -o "$timefile" \
    env CARGO_TARGET_DIR="$target" cargo test --locked --no-run --timings >/dev/null 2>&1
  read -r e u s <"$timefile"
  bw+=("$e")
  bc+=("$(awk -v u="$u" -v s="$s" 'BEGIN {print u + s}')")
  load2=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f '%e %U %S' -o "$timefile" \
    env CARGO_TARGET_DIR="$target" cargo test --locked >/dev/null 2>&1
  read -r e u s <"$timefile"
  rw+=("$e")
  rc+=("$(awk -v u="$u" -v s="$s" 'BEGIN {print u + s}')")
  echo "run $i: build ${bw[-1]} s wall, ${bc[-1]} s CPU (load $load); tests ${rw[-1]} s wall, ${rc[-1]} s CPU (load $load2)"
done
stats "build wall (s)" "${bw[@]}"
stats "build CPU (s)" "${bc[@]}"
stats "tests wall (s)" "${rw[@]}"
stats "tests CPU (s)" "${rc[@]}"
echo "slowest units: $target/cargo-timings/cargo-timing.html"
