#!/usr/bin/env bash
# Issue 30's benchmark: the blast-radius graph of a 20,000-resource configuration
# (target: built in under 100 ms). A generated plan: MODULES module calls of
# RESOURCES resources each (default 200 x 100 = 20,000). In each module, r0 reads
# var.input, r(i) reads r((i-1)/2) (a binary tree), one output reads r0; in the root,
# each module's input reads the previous module's output, in chains of 10 modules,
# and one root resource per chain reads its last output. Every resource is updated,
# one per module replaced. examples/dependents.rs times, in process, the graph alone
# (the configuration parsed and built) and the graph with every change answered.
#
#   bench/dependents.sh            # RUNS=11 MODULES=200 RESOURCES=100
#   PROFILE=dev bench/dependents.sh   # the test profile (opt-level 1): slower, an upper bound
#
# Prints min/median/max milliseconds of each, wall and CPU (the thread's run time:
# the figure to read on a loaded machine).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-11}
MODULES=${MODULES:-200}
RESOURCES=${RESOURCES:-100}
DIR=${BENCH_DIR:-/tmp/planview-bench}/dependents-$MODULES-$RESOURCES
PROFILE=${PROFILE:-release}
if [ "$PROFILE" = release ]; then
  cargo build --release --locked --example dependents >&2; BIN=target/release/examples/dependents
else
  cargo build --locked --example dependents >&2; BIN=target/debug/examples/dependents
fi
if [ ! -s "$DIR/plan.json" ]; then
  rm -rf "$DIR"; mkdir -p "$DIR"
  python3 - "$DIR" "$MODULES" "$RESOURCES" <<'PY'
import json, sys
d, modules, resources = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ref = lambda *r: {"references": list(r)}
calls, changes, root_resources = {}, [], []
for m in range(modules):
    rs = []
    for i in range(resources):
        e = {"input": ref("var.input")} if i == 0 else {"input": ref(f"terraform_data.r{(i-1)//2}.output", f"terraform_data.r{(i-1)//2}"),
                                                         "triggers_replace": {"constant_value": [i]}}
        rs.append({"address": f"terraform_data.r{i}", "mode": "managed", "type": "terraform_data", "name": f"r{i}",
                   "provider_config_key": "terraform", "expressions": e, "schema_version": 0})
        action = ["delete", "create"] if i == 0 else ["update"]
        changes.append({"address": f"module.m{m}.terraform_data.r{i}", "module_address": f"module.m{m}", "mode": "managed",
                        "type": "terraform_data", "name": f"r{i}", "provider_name": "terraform.io/builtin/terraform",
                        "change": {"actions": action, "before": {"input": "x"}, "after": {}, "after_unknown": {"input": True, "output": True},
                                   "before_sensitive": False, "after_sensitive": {}}})
    inp = {"constant_value": "start"} if m % 10 == 0 else ref(f"module.m{m-1}.out", f"module.m{m-1}")
    calls[f"m{m}"] = {"source": "./mod", "expressions": {"input": inp},
                      "module": {"resources": rs, "variables": {"input": {}},
                                 "outputs": {"out": {"expression": ref("terraform_data.r0.output", "terraform_data.r0")}}}}
    if m % 10 == 9:
        root_resources.append({"address": f"terraform_data.end{m}", "mode": "managed", "type": "terraform_data", "name": f"end{m}",
                               "provider_config_key": "terraform", "expressions": {"input": ref(f"module.m{m}.out", f"module.m{m}")}})
        changes.append({"address": f"terraform_data.end{m}", "mode": "managed", "type": "terraform_data", "name": f"end{m}",
                        "change": {"actions": ["update"], "after_unknown": {"input": True}}})
plan = {"format_version": "1.2", "terraform_version": "1.11.4", "resource_changes": changes,
        "configuration": {"root_module": {"resources": root_resources, "module_calls": calls}}, "errored": False, "complete": True}
json.dump(plan, open(f"{d}/plan.json", "w"))
PY
fi
echo "$(python3 -c "import json,sys; p=json.load(open(sys.argv[1])); print(sum(len(c['module']['resources']) for c in p['configuration']['root_module']['module_calls'].values()) + len(p['configuration']['root_module']['resources']))" "$DIR/plan.json") resources in the configuration, $(stat -c %s "$DIR/plan.json") bytes" 
echo "profile: $PROFILE, load: $(cut -d' ' -f1-3 /proc/loadavg), commit: $(git rev-parse --short HEAD)"
"$BIN" "$DIR/plan.json" "$RUNS"
