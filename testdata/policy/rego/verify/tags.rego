package main

# Every created resource must carry an owner tag.
deny_untagged contains msg if {
	some rc in input.resource_changes
	rc.change.actions == ["create"]
	not rc.change.after.tags.owner
	msg := sprintf("%s has no owner tag", [rc.address])
}
