#!/usr/bin/env python3
"""A plan made of one huge value: one create whose `input` is a string of MB megabytes.

    python3 bench/gen_string.py 100 OUT.json        # about 100 MB

Issue 31's third memory shape: a command may hold the largest single value
(64 MB plus it), nothing more. Written as it goes.
"""
import sys

mb, out = int(sys.argv[1]), sys.argv[2]
chunk = "abcdefghij" * 104_858  # about 1 MiB
with open(out, "w") as f:
    f.write('{"format_version":"1.2","terraform_version":"1.11.4","resource_changes":[')
    f.write('{"address":"terraform_data.big","mode":"managed","type":"terraform_data","name":"big",')
    f.write('"change":{"actions":["create"],"before":null,"after":{"input":"')
    for _ in range(mb):
        f.write(chunk)
    f.write('"},"after_unknown":{"output":true},"before_sensitive":false,"after_sensitive":{}}}')
    f.write('],"errored":false,"complete":true}')
