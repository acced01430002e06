package main

changing := [rc |
	some rc in input.resource_changes
	rc.change.actions != ["no-op"]
	rc.change.actions != ["read"]
]

# A warning: shown, does not fail the gate unless --fail-on-warn.
warn_many_changes contains msg if {
	count(changing) > 3
	msg := sprintf("%d resources change (more than 3): split the change?", [count(changing)])
}
