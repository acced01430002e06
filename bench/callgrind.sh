#!/usr/bin/env bash
# Issue 31's instruction counts: callgrind (all threads) of the serde
# `IgnoredAny` skip-only pass (examples/skip_pass.rs, the yardstick) and of
# each question command over the same plan, with each count divided by the
# skip pass's. Counts do not depend on the machine's load (wall and CPU
# seconds do: bench/index.sh). Use plans of 10-30 MB (valgrind runs ~50x slower).
#
#   bench/callgrind.sh                                   # gen_sensitive.py 2000 full (21 MB)
#   PV=/path/to/planview SKIP=/path/to/skip_pass PLAN=/var/tmp/p.json bench/callgrind.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 2; }
DIR=${BENCH_DIR:-/tmp/planview-bench}
PLAN=${PLAN:-$DIR/sensitive-full-2000.json}
mkdir -p "$DIR"
if [ -z "${PV:-}" ]; then
  cargo build --release --locked --bin planview --example skip_pass >&2
  PV=target/release/planview
fi
SKIP=${SKIP:-target/release/examples/skip_pass}
[ -s "$PLAN" ] || python3 bench/gen_sensitive.py 2000 "$PLAN" full
ADDR=${ADDR:-aws_x.r7}
# (A command's own exit status, such as a gate that fails, is not the script's.)
count() { { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null || true; } | awk '/Collected/{gsub(",","",$4); print $4}'; }
skip=$(count "$SKIP" "$PLAN")
echo "- $(date -u +%Y-%m-%dT%H:%MZ), commit ${COMMIT:-$(git rev-parse --short HEAD)}, $PLAN ($(($(stat -c %s "$PLAN") / 1000000)) MB)"
echo
echo "| command | instructions | ÷ skip pass |"
echo "|---|---:|---:|"
echo "| skip-only pass (serde IgnoredAny) | $skip | 1.00x |"
for c in "summary --format json" "gate --format json" "checks --format json" "drift --format json" \
  "replace --format json" "outputs --format json" "state --prior --format json" "show --format json --address $ADDR"; do
  # shellcheck disable=SC2086
  n=$(count "$PV" $c "$PLAN")
  awk -v c="$c" -v n="$n" -v s="$skip" 'BEGIN{printf "| `%s` | %d | %.2fx |\n", c, n, n/s}'
done
