package main

# Resource types come from a data document (--data testdata/policy/rego/data-docs).
deny_type contains msg if {
	some rc in input.resource_changes
	rc.mode == "managed"
	not rc.type in data.allowed.types
	msg := sprintf("%s: type %s is not in the allowed list", [rc.address, rc.type])
}

# A data document in a directory goes under its directory's name: data.limits.
warn_too_many contains msg if {
	n := count(input.resource_changes)
	n > data.limits.changes.max
	msg := sprintf("%d changes, more than %d", [n, data.limits.changes.max])
}
