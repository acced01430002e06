#!/usr/bin/env python3
"""A plan whose `prior_state` holds N resources of `bench/gen_state.py`'s shape, written as it goes.

    python3 bench/gen_prior.py 1000000 OUT.json      # about 761 MB

The shape where `state --prior`'s rows (not what it reads) decide its memory (issue 31).
"""
import json, sys
n_total, out = int(sys.argv[1]), sys.argv[2]
with open(out, "w") as f:
    f.write('{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[],"prior_state":{"format_version":"1.0","terraform_version":"1.9.0","values":{"root_module":{"resources":[')
    for n in range(n_total):
        r = {
            "address": f"aws_instance.web[{n}]", "mode": "managed", "type": "aws_instance", "name": "web",
            "index": n, "provider_name": "registry.terraform.io/hashicorp/aws", "schema_version": 1,
            "values": {"id": f"i-{n:016x}", "ami": "ami-0123456789abcdef0", "instance_type": "t3.micro",
                       "tags": {"Name": f"web-{n}", "env": "prod"}, "private_ip": f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}",
                       "ebs_block_device": [{"device_name": "/dev/sdb", "volume_size": 100, "encrypted": True}],
                       "user_data": "x" * 200, "security_groups": ["sg-1", "sg-2"]},
            "sensitive_values": {"tags": {}, "ebs_block_device": [{}], "security_groups": [False, False]},
        }
        f.write(("," if n else "") + json.dumps(r, separators=(",", ":")))
    f.write(']}}},"errored":false,"complete":true}\n')
