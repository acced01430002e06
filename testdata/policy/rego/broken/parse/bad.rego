package main

deny contains msg if {
	some rc in input.resource_changes
	msg := sprintf("%s", [rc.address]
}
