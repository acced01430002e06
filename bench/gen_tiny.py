#!/usr/bin/env python3
"""A plan of N tiny creates, written as it goes (memory does not grow with N).

    python3 bench/gen_tiny.py N OUT.json        # 1000000: about 126 MB

Each create is a `terraform_data` with one input, in `resource_changes` only:
the shape where what a command keeps per change, not what it reads, decides
its memory (issue 31).
"""
import json
import sys

n, out = int(sys.argv[1]), sys.argv[2]
with open(out, "w") as f:
    f.write('{"format_version":"1.2","terraform_version":"1.11.4","resource_changes":[')
    for i in range(n):
        rc = {"address": f"terraform_data.t{i}", "mode": "managed", "type": "terraform_data", "name": f"t{i}",
              "change": {"actions": ["create"], "before": None, "after": {"input": i}}}
        f.write(("," if i else "") + json.dumps(rc, separators=(",", ":")))
    f.write('],"errored":false,"complete":true}')
