#!/usr/bin/env bash
# Issue 29's benchmark: what reading the configuration adds to `gate`. A
# generated root of 1,000 .tf files with 20 resource blocks each (20,000 blocks)
# and its plan (20,000 creates), through `gate --format json` without the
# configuration (`--no-locations`), with it (read by default: every violation
# located, `--deny create`), `--format sarif`, and `summary --format json`
# without and with it (every change located).
#
#   bench/locate.sh            # RUNS=5 FILES=1000 BLOCKS=20
#
# Prints min/median/max wall seconds and peak RSS (bench/measure.sh), then
# min/median/max CPU seconds (user + sys) of the gate runs: on a loaded
# machine the CPU added is the steadier figure.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
FILES=${FILES:-1000}
BLOCKS=${BLOCKS:-20}
DIR=${BENCH_DIR:-/tmp/planview-bench}/locate-$FILES-$BLOCKS
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }
cargo build --release --locked --bin planview >&2
PV=${CARGO_TARGET_DIR:-target}/release/planview
if [ ! -s "$DIR/plan.json" ]; then
  rm -rf "$DIR"; mkdir -p "$DIR/root"
  python3 - "$DIR" "$FILES" "$BLOCKS" <<'PY'
import json, sys
d, files, blocks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
changes = []
for f in range(files):
    with open(f"{d}/root/f{f:04}.tf", "w") as out:
        for b in range(blocks):
            name = f"r{f}_{b}"
            out.write(f'# block {b} of file {f}\nresource "terraform_data" "{name}" {{\n  count = 2\n  input = {{ file = {f}, block = "{b}" }}\n\n  lifecycle {{\n    precondition {{\n      condition     = true\n      error_message = "never"\n    }}\n  }}\n}}\n\n')
            for i in range(2 if b == 0 else 1):
                changes.append({"address": f"terraform_data.{name}[{i}]", "mode": "managed", "type": "terraform_data", "name": name,
                                "index": i, "provider_name": "terraform.io/builtin/terraform",
                                "change": {"actions": ["create"], "before": None, "after": {"input": {"file": f, "block": str(b)}},
                                           "after_unknown": {"id": True, "output": True}, "before_sensitive": False, "after_sensitive": {}}})
plan = {"format_version": "1.2", "terraform_version": "1.11.4", "resource_changes": changes, "errored": False, "complete": True}
json.dump(plan, open(f"{d}/plan.json", "w"))
PY
fi
bytes=$(stat -c %s "$DIR/plan.json")
blocks=$(cat "$DIR"/root/*.tf | grep -c '^resource')
source bench/measure.sh

echo "- $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- $FILES .tf files, $blocks resource blocks ($(du -sk "$DIR/root" | cut -f1) KB), plan $((bytes / 1000)) KB, $(grep -o '"address"' "$DIR/plan.json" | wc -l) changes"
echo
echo "| command | min s | median s | max s | MB/s (median) | / no configuration | peak RSS MB |"
echo "|---|---:|---:|---:|---:|---:|---:|"
BASE=""
measure "gate --deny create --format json --no-locations (no configuration read)" "$bytes" "$PV gate --deny create --format json --no-locations $DIR/plan.json"
BASE=$MED
measure "gate --deny create --format json (configuration read by default)" "$bytes" "$PV gate --deny create --format json --chdir $DIR/root $DIR/plan.json"
measure "gate --deny create --format sarif" "$bytes" "$PV gate --deny create --format sarif --chdir $DIR/root $DIR/plan.json"
BASE=""
measure "summary --format json --no-locations" "$bytes" "$PV summary --format json --no-locations $DIR/plan.json"
BASE=$MED
measure "summary --format json (every change located)" "$bytes" "$PV summary --format json --chdir $DIR/root $DIR/plan.json"

# CPU (user + sys) of RUNS runs, min/median/max; echoes the median in $cpu_med.
cpu() {
  local label=$1; shift
  local c cs=()
  for _ in $(seq "$RUNS"); do
    read -r _ c _ _ < <(timed "$*")
    cs+=("$c")
  done
  local min max
  read -r min cpu_med max < <(stats "${cs[@]}")
  echo "| $label | $min | $cpu_med | $max |"
}
echo
echo "| CPU (user + sys) | min s | median s | max s |"
echo "|---|---:|---:|---:|"
cpu "gate --no-locations" "$PV gate --deny create --format json --no-locations $DIR/plan.json"
base=$cpu_med
cpu "gate (configuration read)" "$PV gate --deny create --format json --chdir $DIR/root $DIR/plan.json"
echo
echo "CPU added by reading the configuration (median to median): $(awk -v a="$cpu_med" -v b="$base" 'BEGIN{printf "%.0f ms", (a-b)*1000}')"
