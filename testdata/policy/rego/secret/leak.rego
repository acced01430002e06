package main

# A careless policy that puts a value of the plan into its message: planview
# masks it like any other copy of a secret (conftest would print it).
deny contains msg if {
	some rc in input.resource_changes
	rc.type == "terraform_data"
	rc.change.actions == ["create"]
	msg := sprintf("%s would be created with input %v", [rc.address, rc.change.after.input])
}

warn contains {"msg": "a secret in a detail", "address": rc.address, "value": rc.change.after.input} if {
	some rc in input.resource_changes
	rc.address == "terraform_data.plain_secret"
}
