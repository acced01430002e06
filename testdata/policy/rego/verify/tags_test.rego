package main

# `planview gate --verify --policy DIR` runs these, as `conftest verify` does.
untagged := {"resource_changes": [{"address": "a.b", "change": {"actions": ["create"], "after": {"tags": {}}}}]}

tagged := {"resource_changes": [{"address": "a.b", "change": {"actions": ["create"], "after": {"tags": {"owner": "team"}}}}]}

test_untagged_is_denied if {
	deny_untagged == {"a.b has no owner tag"} with input as untagged
}

test_tagged_passes if {
	count(deny_untagged) == 0 with input as tagged
}

# A test that fails on purpose (the suite checks that a failing test exits 1).
test_fails_on_purpose if {
	count(deny_untagged) == 1 with input as tagged
}
