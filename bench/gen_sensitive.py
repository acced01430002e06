#!/usr/bin/env python3
"""A plan where every resource changes and carries a sensitive attribute.

    python3 bench/gen_sensitive.py N OUT.json   # N resources (40000: about 200 MB)

Each of the N `update`s has 40 plain attributes, a `password` marked sensitive on
both sides and a `tags` map: the shape where finding secrets dominates the cost
of reading a plan (issue 14's profile).
"""
import json
import sys

n, out = int(sys.argv[1]), sys.argv[2]
rcs = []
for i in range(n):
    attrs = {f"attr_{k}": f"value-{i}-{k}-" + "x" * 30 for k in range(40)}
    before = dict(attrs, password=f"pw-{i}-secret-abcdef", tags={"Name": f"r{i}"})
    after = dict(before, attr_0=f"new-{i}")
    marks = {"password": True, "tags": {}}
    rcs.append({"address": f"aws_x.r{i}", "mode": "managed", "type": "aws_x", "name": f"r{i}",
                "change": {"actions": ["update"], "before": before, "after": after, "after_unknown": {},
                           "before_sensitive": marks, "after_sensitive": marks}})
with open(out, "w") as f:
    json.dump({"format_version": "1.2", "terraform_version": "1.11.4", "resource_changes": rcs,
               "errored": False, "complete": True}, f)
