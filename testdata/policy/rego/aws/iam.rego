package terraform.aws

# Write access to S3 is a warning, for a second look.
warn_s3_write contains {"msg": msg, "address": rc.address, "action": action} if {
	some rc in input.resource_changes
	rc.type == "aws_iam_policy"
	doc := json.unmarshal(rc.change.after.policy)
	some statement in doc.Statement
	statement.Effect == "Allow"
	some action in statement.Action
	regex.match(`^s3:(Put|Delete)`, action)
	msg := sprintf("%s grants %s", [rc.address, action])
}
