package main

deny contains {"message": rc.address} if {
	some rc in input.resource_changes
}
