#!/usr/bin/env python3
"""Writes the hand-made question fixtures: drift.json (resource_drift with
relevant_attributes: nested, index and sensitive paths), drift-refresh-only.json
(no resource_changes key) and condition-results.json (Terraform 1.2 era).
Run from the repository root: python3 testdata/edge/make-question-fixtures.py"""
import json
P = "registry.terraform.io/hashicorp/aws"

def rc(addr, typ, name, actions, before, after, bs=None, as_=None, au=None, module=None, index=None, reason=None, **extra):
    d = {"address": addr}
    if module: d["module_address"] = module
    d.update({"mode": "managed", "type": typ, "name": name})
    if index is not None: d["index"] = index
    d["provider_name"] = P
    ch = {"actions": actions, "before": before, "after": after,
          "after_unknown": au if au is not None else {},
          "before_sensitive": bs if bs is not None else {},
          "after_sensitive": as_ if as_ is not None else {}}
    ch.update(extra)
    d["change"] = ch
    if reason: d["action_reason"] = reason
    return d

web_before = {"ami": "ami-0abc1234", "instance_type": "t3.small", "id": "i-0123456789abcdef0",
    "root_block_device": [{"volume_size": 8, "volume_type": "gp3", "encrypted": True}],
    "tags": {"Name": "web", "Owner": "team-a"}, "user_data": None}
web_drift_after = dict(web_before, root_block_device=[{"volume_size": 20, "volume_type": "gp3", "encrypted": True}],
    tags={"Name": "web-hotfix", "Owner": "team-b", "CostCenter": "42"}, instance_type="t3.medium")
web_planned = dict(web_drift_after, root_block_device=[{"volume_size": 8, "volume_type": "gp3", "encrypted": True}],
    tags={"Name": "web", "Owner": "team-b", "CostCenter": "42"})

sg_before = {"id": "sg-0aa", "name": "app", "ingress": [{"from_port": 443, "to_port": 443, "protocol": "tcp", "cidr_blocks": ["10.0.0.0/16"]}]}
sg_after = {"id": "sg-0aa", "name": "app", "ingress": [
    {"from_port": 443, "to_port": 443, "protocol": "tcp", "cidr_blocks": ["0.0.0.0/0"]},
    {"from_port": 22, "to_port": 22, "protocol": "tcp", "cidr_blocks": ["0.0.0.0/0"]}]}

db_before = {"id": "db-main", "identifier": "main", "allocated_storage": 20, "password": "SECRET-MARKER-edge-old-db-pw", "engine_version": "15.4"}
db_after = dict(db_before, password="SECRET-MARKER-edge-rotated-db-pw", engine_version="15.5", allocated_storage=50)
db_planned = dict(db_after, password="SECRET-MARKER-edge-old-db-pw")

logs = {"id": "acme-logs", "bucket": "acme-logs", "tags": {"Team": "platform"}, "acl": "private"}
logs_after = dict(logs, tags={"Team": "platform", "touched-by": "console"})

eip = {"id": "eipalloc-1", "public_ip": "203.0.113.10", "domain": "vpc"}

drift = [
    rc("aws_instance.web", "aws_instance", "web", ["update"], web_before, web_drift_after),
    rc("module.net.aws_security_group.app", "aws_security_group", "app", ["update"], sg_before, sg_after, module="module.net"),
    rc("aws_db_instance.main", "aws_db_instance", "main", ["update"], db_before, db_after,
       bs={"password": True}, as_={"password": True}),
    rc("aws_s3_bucket.logs", "aws_s3_bucket", "logs", ["update"], logs, logs_after),
    rc("aws_eip.old", "aws_eip", "old", ["delete"], eip, None, as_=False),
]
changes = [
    rc("aws_instance.web", "aws_instance", "web", ["update"], web_drift_after, web_planned),
    rc("module.net.aws_security_group.app", "aws_security_group", "app", ["update"], sg_after, sg_before, module="module.net"),
    rc("aws_db_instance.main", "aws_db_instance", "main", ["update"], db_after, db_planned,
       bs={"password": True}, as_={"password": True}),
    rc("aws_s3_bucket.logs", "aws_s3_bucket", "logs", ["no-op"], logs_after, logs_after),
    rc("aws_eip.old", "aws_eip", "old", ["create"], None, {"domain": "vpc"}, bs=False, au={"id": True, "public_ip": True}),
]
relevant = [
    {"resource": "aws_instance.web", "attribute": ["root_block_device", 0, "volume_size"]},
    {"resource": "aws_instance.web", "attribute": ["tags", "Name"]},
    {"resource": "module.net.aws_security_group.app", "attribute": ["ingress", 0, "cidr_blocks"]},
    {"resource": "module.net.aws_security_group.app", "attribute": ["ingress", 1]},
    {"resource": "aws_db_instance.main", "attribute": ["password"]},
    {"resource": "aws_db_instance.main", "attribute": ["allocated_storage"]},
    {"resource": "aws_eip.old", "attribute": ["public_ip"]},
]
plan = {
    "format_version": "1.2", "terraform_version": "1.5.7",
    "variables": {"db_password": {"value": "SECRET-MARKER-edge-old-db-pw"}},
    "planned_values": {"root_module": {}},
    "resource_drift": drift,
    "resource_changes": changes,
    "relevant_attributes": relevant,
    "output_changes": {},
    "configuration": {"root_module": {"variables": {"db_password": {"sensitive": True}}}},
    "timestamp": "2026-11-21T12:00:00Z", "applyable": True, "complete": True, "errored": False,
}
json.dump(plan, open("testdata/edge/drift.json", "w"), indent=1)

# Refresh-only: no resource_changes key, drift, no relevant_attributes.
ro = {
    "format_version": "1.2", "terraform_version": "1.5.7",
    "planned_values": {"root_module": {}},
    "resource_drift": [drift[3], drift[4],
        rc("aws_instance.web", "aws_instance", "web", ["no-op"], web_before, web_before, previous_address="aws_instance.old_web")],
    "output_changes": {"bucket": {"actions": ["no-op"], "before": "acme-logs", "after": "acme-logs", "after_unknown": False, "before_sensitive": False, "after_sensitive": False}},
    "timestamp": "2026-11-21T12:00:00Z", "applyable": True, "complete": True, "errored": False,
}
ro["resource_drift"][2]["previous_address"] = "aws_instance.old_web"
ro["resource_drift"][2]["change"].pop("previous_address")
json.dump(ro, open("testdata/edge/drift-refresh-only.json", "w"), indent=1)

# Terraform 1.2: condition_results instead of checks (format 1.1).
cr = {
    "format_version": "1.1", "terraform_version": "1.2.9",
    "planned_values": {"root_module": {}},
    "resource_changes": [rc("aws_instance.web", "aws_instance", "web", ["create"], None, {"ami": "ami-0abc1234"}, bs=False, au={"id": True})],
    "output_changes": {},
    "condition_results": [
        {"address": "aws_instance.web", "condition_type": "ResourcePrecondition", "result": False, "unknown": False,
         "error_message": "The AMI must be for the x86_64 architecture."},
        {"address": "aws_instance.web", "condition_type": "ResourcePostcondition", "result": False, "unknown": True},
        {"address": "module.net.aws_subnet.private[0]", "condition_type": "ResourcePrecondition", "result": True, "unknown": False},
        {"address": "output.api_url", "condition_type": "OutputPrecondition", "result": False, "unknown": False,
         "error_message": "The API URL must use HTTPS."},
    ],
}
json.dump(cr, open("testdata/edge/condition-results.json", "w"), indent=1)
