package main

# A test file: skipped by `gate --policy DIR` (conftest verify runs these).
test_destroy_denied if {
	count(deny) == 1 with input as {"resource_changes": [{"address": "a.b", "mode": "managed", "change": {"actions": ["delete"]}}]}
}
