#!/usr/bin/env python3
"""Print a Markdown table of what each fixture's plan.json contains.

Usage: python3 testdata/real/coverage.py   (run after make-fixtures.sh)
"""
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent


def fmt(xs):
    return ", ".join(sorted(xs)) if xs else "-"


def main():
    rows = []
    for plan in sorted(ROOT.glob("*/plan.json")):
        d = json.loads(plan.read_text())
        actions, reasons, extras = set(), set(), set()
        for rc in d.get("resource_changes") or []:
            c = rc["change"]
            actions.add(("data " if rc.get("mode") == "data" else "") + json.dumps(c["actions"]))
            if "action_reason" in rc:
                reasons.add(rc["action_reason"])
            for k in ("previous_address", "deposed"):
                if k in rc:
                    extras.add(k)
            for k in ("importing", "generated_config", "replace_paths"):
                if k in c:
                    extras.add(k)
        outs = {json.dumps(v["actions"]) for v in (d.get("output_changes") or {}).values()}
        checks = {f'{ch["address"]["kind"]}:{ch["status"]}' for ch in d.get("checks") or []}
        if d.get("errored"):
            extras.add("errored")
        if not d.get("applyable"):
            extras.add("applyable=false")
        if "resource_changes" not in d:
            extras.add("no resource_changes key")
        line = (plan.parent / "plan-line.txt").read_text().strip().replace("\n", " / ")
        rows.append((plan.parent.name, fmt(actions), fmt(reasons), fmt(outs), fmt(checks), fmt(extras), line))
    print("| fixture | resource actions | action_reason | output actions | checks (kind:status) | other | plan-line.txt |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(x.replace("|", "\\|") for x in r) + " |")


if __name__ == "__main__":
    main()
