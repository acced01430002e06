#!/usr/bin/env python3
"""Write a big `terraform show -json` state (format 1.0) for benchmarks.

    python3 bench/gen_state.py OUT.json [MB]     # default 70 MB

`values.root_module.resources` holds identical-shaped `aws_instance` resources
(each with a `values` object) until the file reaches about MB megabytes.
Deterministic: the same size gives the same file.
"""
import json
import sys


def resource(n):
    """The Nth resource: an `aws_instance` with a `values` object (also `bench/gen_prior.py`'s)."""
    return {
        "address": f"aws_instance.web[{n}]", "mode": "managed", "type": "aws_instance", "name": "web",
        "index": n, "provider_name": "registry.terraform.io/hashicorp/aws", "schema_version": 1,
        "values": {"id": f"i-{n:016x}", "ami": "ami-0123456789abcdef0", "instance_type": "t3.micro",
                   "tags": {"Name": f"web-{n}", "env": "prod"}, "private_ip": f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}",
                   "ebs_block_device": [{"device_name": "/dev/sdb", "volume_size": 100, "encrypted": True}],
                   "user_data": "x" * 200, "security_groups": ["sg-1", "sg-2"]},
        "sensitive_values": {"tags": {}, "ebs_block_device": [{}], "security_groups": [False, False]},
    }


if __name__ == "__main__":
    out, mb = sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 70
    target = int(mb * 1e6)
    with open(out, "w") as f:
        f.write('{"format_version":"1.0","terraform_version":"1.9.0","values":{"root_module":{"resources":[')
        n = 0
        size = 0
        while size < target:
            r = resource(n)
            s = json.dumps(r, separators=(",", ":"))
            if n:
                f.write(",")
            f.write(s)
            size += len(s) + 1
            n += 1
        f.write(']}}}\n')
    print(out, n, "resources")
