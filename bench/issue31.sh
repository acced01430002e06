#!/usr/bin/env bash
# Every figure issue 31 names, one script after another, with one release
# build: speed against the serde skip pass (bench/index.sh, the 113 MB plan,
# every command), peak RSS on the three shapes (bench/memory.sh: 1,000,000
# tiny creates, a 1 GB plan, one 100 MB string; from the file and through a
# pipe), 500 roots (bench/roots.sh) and start-up on a 10 KB plan
# (bench/startup.sh). Markdown on stdout, for BENCHMARKS.md.
#
#   bench/issue31.sh                       # RUNS=5 for speed, MEM_RUNS=1 for memory
#   PV=/path/to/planview COMMIT=abc1234 bench/issue31.sh   # a build made before
#
# Run it on a quiet machine: the speed figures are ratios of interleaved runs,
# but two cores shared with other work still move them.
set -euo pipefail
cd "$(dirname "$0")/.."
COMMIT=${COMMIT:-$(git rev-parse --short HEAD)}
if [ -z "${PV:-}" ]; then
  cargo build --release --locked --bin planview --example skip_pass --example gen_plan >&2
  PV=target/release/planview
fi
export PV COMMIT
echo "### Speed against the skip pass"
echo
RUNS=${RUNS:-5} bench/index.sh
echo
echo "### Memory"
echo
RUNS=${MEM_RUNS:-1} GB_RUNS=${MEM_RUNS:-1} HOW="file pipe" SHAPES="tiny gb string" bench/memory.sh
echo "### 500 roots"
echo
RUNS=${RUNS:-5} bench/roots.sh
echo
echo "### Start-up"
echo
bench/startup.sh
