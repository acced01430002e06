# `--namespace 'terraform.*'` (or --all-namespaces) queries this package.
package terraform.aws

# Only HTTPS may be open to the world.
deny_world_ingress contains msg if {
	some rc in input.resource_changes
	rc.type == "aws_security_group"
	some rule in rc.change.after.ingress
	"0.0.0.0/0" in rule.cidr_blocks
	rule.from_port != 443
	msg := sprintf("%s opens port %d to 0.0.0.0/0", [rc.address, rule.from_port])
}
