#!/usr/bin/env python3
"""A plan whose `prior_state` holds N resources of `bench/gen_state.py`'s shape, written as it goes.

    python3 bench/gen_prior.py 1000000 OUT.json      # about 761 MB

The shape where `state --prior`'s rows (not what it reads) decide its memory (issue 31).
"""
import json, sys

from gen_state import resource  # the same resource as the state benchmarks

n_total, out = int(sys.argv[1]), sys.argv[2]
with open(out, "w") as f:
    f.write('{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[],"prior_state":{"format_version":"1.0","terraform_version":"1.9.0","values":{"root_module":{"resources":[')
    for n in range(n_total):
        r = resource(n)
        f.write(("," if n else "") + json.dumps(r, separators=(",", ":")))
    f.write(']}}},"errored":false,"complete":true}\n')
