#!/usr/bin/env python3
"""A plan where every resource changes and carries a sensitive attribute.

    python3 bench/gen_sensitive.py N OUT.json        # N resources (40000: about 200 MB)
    python3 bench/gen_sensitive.py N OUT.json full   # as `show -json` writes a plan: also
                                                     # planned_values, prior_state, drift

Each of the N `update`s has 40 plain attributes, a `password` marked sensitive on
both sides and a `tags` map: the shape where finding secrets dominates the cost
of reading a plan (issue 14's profile). With `full`, every resource is also in
`planned_values` and `prior_state` (with `sensitive_values`), as in a real plan,
one in 20 has drifted and one in 10 is replaced instead of updated (N=8000: about
110 MB).
"""
import json
import sys

n, out = int(sys.argv[1]), sys.argv[2]
full = len(sys.argv) > 3 and sys.argv[3] == "full"
rcs = []
drift = []
planned = []
prior = []
for i in range(n):
    attrs = {f"attr_{k}": f"value-{i}-{k}-" + "x" * 30 for k in range(40)}
    before = dict(attrs, password=f"pw-{i}-secret-abcdef", tags={"Name": f"r{i}"})
    after = dict(before, attr_0=f"new-{i}")
    marks = {"password": True, "tags": {}}
    actions = ["delete", "create"] if full and i % 10 == 0 else ["update"]
    rc = {"address": f"aws_x.r{i}", "mode": "managed", "type": "aws_x", "name": f"r{i}",
          "change": {"actions": actions, "before": before, "after": after, "after_unknown": {},
                     "before_sensitive": marks, "after_sensitive": marks}}
    if actions[0] == "delete":
        rc["action_reason"] = "replace_because_cannot_update"
        rc["change"]["replace_paths"] = [["attr_0"]]
    rcs.append(rc)
    if full:
        res = {"address": f"aws_x.r{i}", "mode": "managed", "type": "aws_x", "name": f"r{i}",
               "provider_name": "registry.terraform.io/hashicorp/aws", "schema_version": 0}
        planned.append(dict(res, values=after, sensitive_values=marks))
        prior.append(dict(res, values=before, sensitive_values=marks))
        if i % 20 == 0:
            drifted = dict(before, attr_1="changed-outside")
            drift.append({"address": f"aws_x.r{i}", "mode": "managed", "type": "aws_x", "name": f"r{i}",
                          "change": {"actions": ["update"], "before": before, "after": drifted,
                                     "before_sensitive": marks, "after_sensitive": marks}})
doc = {"format_version": "1.2", "terraform_version": "1.11.4"}
if full:
    doc["planned_values"] = {"root_module": {"resources": planned}}
    doc["resource_drift"] = drift
doc["resource_changes"] = rcs
if full:
    doc["prior_state"] = {"format_version": "1.0", "terraform_version": "1.11.4",
                          "values": {"root_module": {"resources": prior}}}
    doc["relevant_attributes"] = [{"resource": d["address"], "attribute": ["attr_1"]} for d in drift]
doc.update({"errored": False, "complete": True})
with open(out, "w") as f:
    json.dump(doc, f)
