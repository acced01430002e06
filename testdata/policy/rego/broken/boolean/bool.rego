package main

# A boolean rule: conftest refuses `deny if` too (it needs `contains`).
deny if {
	count(input.resource_changes) > 0
}
