#!/usr/bin/env python3
"""Cut `terraform providers schema -json` (stdin; 13 MB for hashicorp/aws) down to
the resource and data source types a plan uses (argv[1], its `show -json`), and
drop the `description`/`description_kind` texts: the shape of every kept schema
is untouched. Writes the cut document to stdout, keys sorted, one line."""
import json
import sys

full = json.load(sys.stdin)
plan = json.load(open(sys.argv[1]))
used = {}
for rc in plan.get("resource_changes", []) + plan.get("resource_drift", []):
    used.setdefault(rc["provider_name"], set()).add((rc["mode"], rc["type"]))


def strip(v):
    if isinstance(v, dict):
        # Texts only: an attribute may be named `description` too.
        return {k: strip(x) for k, x in v.items() if not (k in ("description", "description_kind") and isinstance(x, str))}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v


out = {"format_version": full["format_version"], "provider_schemas": {}}
for name, p in full.get("provider_schemas", {}).items():
    types = used.get(name)
    if not types:
        continue
    kept = {"provider": strip(p.get("provider", {}))}
    for key, mode in (("resource_schemas", "managed"), ("data_source_schemas", "data")):
        kept[key] = {t: strip(s) for t, s in p.get(key, {}).items() if (mode, t) in types}
    out["provider_schemas"][name] = kept
json.dump(out, sys.stdout, sort_keys=True, separators=(",", ":"))
sys.stdout.write("\n")
