package main

# An object with msg: the other keys are kept as details; `address` names
# the resource in planview's reports.
violation_replace contains {"msg": msg, "address": rc.address, "reason": rc.action_reason} if {
	some rc in input.resource_changes
	"create" in rc.change.actions
	"delete" in rc.change.actions
	msg := sprintf("%s would be replaced (%s)", [rc.address, rc.action_reason])
}
