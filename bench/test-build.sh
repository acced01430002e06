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
# Per run it also prints each test binary's result line (its own wall time)
# and the largest build units from `--timings` (needs python3).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-1}
target=${TARGET:-$PWD/target-clean}
export CARGO_INCREMENTAL=${CARGO_INCREMENTAL:-0}
commit=$(git rev-parse --short HEAD)$(git diff --quiet || echo "+dirty")
timefile=$(mktemp)
testlog=$(mktemp)
trap 'rm -f "$timefile" "$testlog"' EXIT
echo "commit $commit, $(nproc) cores, RUNS=$runs, CARGO_INCREMENTAL=$CARGO_INCREMENTAL, target $target"

# shellcheck source=bench/stats.sh
source "$(dirname "$0")/stats.sh"
row() { # label, then numbers: min/median/max
  local label=$1 a b c
  shift
  read -r a b c < <(stats "$@")
  printf '%-22s min %8.1f  median %8.1f  max %8.1f\n' "$label" "$a" "$b" "$c"
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
    env CARGO_TARGET_DIR="$target" cargo test --locked >"$testlog" 2>&1
  read -r e u s <"$timefile"
  rw+=("$e")
  rc+=("$(awk -v u="$u" -v s="$s" 'BEGIN {print u + s}')")
  load3=$(cut -d' ' -f1 /proc/loadavg)
  echo "run $i: build ${bw[-1]} s wall, ${bc[-1]} s CPU (load $load); tests ${rw[-1]} s wall, ${rc[-1]} s CPU (load $load2, $load3 at the end)"
  # Each test binary's own line (passed, failed, its wall time), in the order run.
  grep -E '^test result:' "$testlog" | sed 's/^/  /'
  # Where the build went: each unit's wall time from `--timings` (under load
  # they stretch together; the shares are what to compare), the largest first.
  python3 - "$target/cargo-timings/cargo-timing.html" <<'PY'
import json, sys
html = open(sys.argv[1]).read()
start = html.index("const UNIT_DATA = ") + len("const UNIT_DATA = ")
units = json.loads(html[start:html.index("];", start) + 1])
total = sum(u["duration"] for u in units)
ours = sum(u["duration"] for u in units if u["name"] == "planview")
print(f"  units: {len(units)}, {total:.0f} s of unit time, planview's own {ours:.0f} s ({100 * ours / total:.0f}%); the largest:")
for u in sorted(units, key=lambda u: -u["duration"])[:6]:
    name = f'{u["name"]} {u["target"].strip() or "(lib)"}'
    print(f'    {name:<34} {u["duration"]:7.1f} s {100 * u["duration"] / total:5.1f}%')
PY
done
row "build wall (s)" "${bw[@]}"
row "build CPU (s)" "${bc[@]}"
row "tests wall (s)" "${rw[@]}"
row "tests CPU (s)" "${rc[@]}"
echo "slowest units: $target/cargo-timings/cargo-timing.html"
