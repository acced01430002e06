# conftest's default package: `conftest test plan.json` queries data.main.
package main

# A plain string result: fails the gate (deny).
deny contains msg if {
	some rc in input.resource_changes
	rc.mode == "managed"
	"delete" in rc.change.actions
	msg := sprintf("%s would be destroyed", [rc.address])
}
