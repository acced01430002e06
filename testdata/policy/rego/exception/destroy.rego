package main

deny_destroy contains msg if {
	some rc in input.resource_changes
	"delete" in rc.change.actions
	msg := sprintf("%s would be destroyed", [rc.address])
}

deny_create contains msg if {
	some rc in input.resource_changes
	rc.change.actions == ["create"]
	msg := sprintf("%s would be created", [rc.address])
}

# conftest's exceptions: a rule named here (without its deny_ prefix) yields nothing.
exception contains rules if {
	rules := ["destroy"]
}
