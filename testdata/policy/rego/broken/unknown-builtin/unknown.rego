package main

deny contains msg if {
	some rc in input.resource_changes
	msg := no_such.builtin(rc.address)
}
