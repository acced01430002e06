#!/usr/bin/env bash
# `gate --policy DIR` (Rego) next to `gate` alone on the same generated plan,
# in the same run: wall time (min/median/max of RUNS), peak RSS, and the ratios
# (issue 28). The policy set, ~10 typical conftest rules, is generated here.
#
#   bench/rego.sh                       # SIZE=110M (113 MB), RUNS=5
#   SIZE=20M RUNS=3 bench/rego.sh
#   BENCH_DIR=/var/tmp/pv bench/rego.sh # where the plan is generated (default /tmp/planview-bench)
#   PV=target/release/planview GEN=target/debug/examples/gen_plan bench/rego.sh  # no build
#
# Needs /usr/bin/time (GNU time). Prints a markdown table for BENCHMARKS.md.
set -euo pipefail

cd "$(dirname "$0")/.."
SIZE=${SIZE:-110M}
DIR=${BENCH_DIR:-/tmp/planview-bench}
RUNS=${RUNS:-5}
TARGET=${CARGO_TARGET_DIR:-target}
mkdir -p "$DIR"
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time (GNU time) is needed: apt-get install time" >&2; exit 2; }

# PV=/path/to/planview (and GEN=...) skip the build.
if [ -z "${PV:-}" ]; then
  echo "building release..." >&2
  cargo build --release --locked --bin planview --example gen_plan >&2
  PV="$TARGET/release/planview"
fi
GEN=${GEN:-$TARGET/release/examples/gen_plan}
PLAN="$DIR/plan-$SIZE-seed1.json"
[ -s "$PLAN" ] || "$GEN" --size "$SIZE" --seed 1 -o "$PLAN"
BYTES=$(stat -c %s "$PLAN")

POL="$DIR/rego-policy"
rm -rf "$POL" && mkdir -p "$POL"
cat >"$POL/policy.rego" <<'REGO'
package main

# Ten rules of the kinds teams write: destruction, replacement, types, tags,
# instance sizes, open ingress, encryption, deletion protection, counts.
deny_destroy contains msg if {
	some rc in input.resource_changes
	rc.mode == "managed"
	"delete" in rc.change.actions
	startswith(rc.type, "aws_db")
	msg := sprintf("%s: a database would be destroyed", [rc.address])
}

violation_replace contains {"msg": msg, "address": rc.address} if {
	some rc in input.resource_changes
	"create" in rc.change.actions
	"delete" in rc.change.actions
	rc.type == "aws_security_group"
	msg := sprintf("%s would be replaced", [rc.address])
}

allowed_types := {"aws_instance", "aws_security_group", "aws_db_instance", "aws_s3_bucket", "aws_iam_role", "aws_ami", "aws_lb", "aws_route53_record"}

warn_type contains msg if {
	some rc in input.resource_changes
	rc.mode == "managed"
	not rc.type in allowed_types
	msg := sprintf("%s: type %s is not on the list", [rc.address, rc.type])
}

deny_untagged contains msg if {
	some rc in input.resource_changes
	rc.change.actions == ["create"]
	is_object(rc.change.after.tags)
	not rc.change.after.tags.Owner
	not rc.change.after.tags.Name
	msg := sprintf("%s has neither Owner nor Name tag", [rc.address])
}

deny_instance_type contains msg if {
	some rc in input.resource_changes
	rc.type == "aws_instance"
	t := rc.change.after.instance_type
	is_string(t)
	regex.match(`^(x1|u-|p4)`, t)
	msg := sprintf("%s: instance type %s is not allowed", [rc.address, t])
}

deny_open_ssh contains msg if {
	some rc in input.resource_changes
	rc.type == "aws_security_group"
	some rule in rc.change.after.ingress
	"0.0.0.0/0" in rule.cidr_blocks
	rule.from_port <= 22
	rule.to_port >= 22
	msg := sprintf("%s opens SSH to the world", [rc.address])
}

deny_unencrypted contains msg if {
	some rc in input.resource_changes
	rc.type == "aws_db_instance"
	rc.change.after.storage_encrypted == false
	msg := sprintf("%s: storage is not encrypted", [rc.address])
}

deny_protection_off contains msg if {
	some rc in input.resource_changes
	rc.type == "aws_db_instance"
	rc.change.before.deletion_protection == true
	rc.change.after.deletion_protection == false
	msg := sprintf("%s: deletion_protection turned off", [rc.address])
}

changed := [rc | some rc in input.resource_changes; rc.change.actions != ["no-op"]]

warn_many contains msg if {
	count(changed) > 50
	msg := sprintf("%d resources change", [count(changed)])
}

warn_drift contains msg if {
	count(object.get(input, "resource_drift", [])) > 0
	msg := sprintf("%d resources drifted", [count(input.resource_drift)])
}
REGO

# The same rules and one that reads `input` whole: the engine then gets the
# whole plan, where the ten alone name only resource_changes and
# resource_drift (the other top-level keys are never converted).
WHOLE="$DIR/rego-policy-whole"
rm -rf "$WHOLE" && mkdir -p "$WHOLE"
cp "$POL/policy.rego" "$WHOLE/policy.rego"
cat >>"$WHOLE/policy.rego" <<'REGO'

warn_keys contains msg if {
	count(object.keys(input)) > 100
	msg := "a plan with over 100 top-level keys"
}
REGO

# What dominates: a rule that reads no input (the plan read whole, the
# engine given nothing), and one that reads resource_changes and never fires
# (their conversion, next to nothing evaluated).
NONE="$DIR/rego-policy-none" ONE="$DIR/rego-policy-one"
rm -rf "$NONE" "$ONE" && mkdir -p "$NONE" "$ONE"
printf 'package main\n\ndeny contains "never" if {\n\tfalse\n}\n' >"$NONE/policy.rego"
printf 'package main\n\ndeny contains rc.address if {\n\tsome rc in input.resource_changes\n\trc.type == "never"\n}\n' >"$ONE/policy.rego"

# shellcheck source=bench/measure.sh
. bench/measure.sh
cat "$PLAN" >/dev/null
echo "## gate with Rego policies ($(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
echo
echo "| command ($SIZE, $((BYTES / 1000000)) MB) | min s | median s | max s | MB/s | vs gate | peak RSS MB |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
BASE=""
measure '`gate`' "$BYTES" "$PV gate --allow '*' $PLAN"
BASE=$MED
measure '`gate --expect-fingerprint` (read whole, no Rego)' "$BYTES" "$PV gate --allow '*' --expect-fingerprint sha256:$(printf 0%.0s {1..64}) $PLAN"
measure '`gate --policy DIR` (1 rule, reads no input)' "$BYTES" "$PV gate --allow '*' --policy $NONE $PLAN"
measure '`gate --policy DIR` (1 rule on resource_changes, never fires)' "$BYTES" "$PV gate --allow '*' --policy $ONE $PLAN"
measure '`gate --policy DIR` (10 Rego rules; input: the 2 keys they name)' "$BYTES" "$PV gate --allow '*' --policy $POL $PLAN"
measure '`gate --policy DIR` (11 rules, one reads `input` whole)' "$BYTES" "$PV gate --allow '*' --policy $WHOLE $PLAN"
echo
echo "Input: $BYTES bytes. RSS / input for \`gate --policy\`: see the last row's peak RSS over $((BYTES / 1000000)) MB."
