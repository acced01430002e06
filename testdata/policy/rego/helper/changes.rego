package main

# Short rules on data.planview.changes, planview's own reading of each change
# (one action word, replace order and paths, changed attribute paths, moved_from,
# importing, noise): no re-deriving from change.actions and before/after.

deny_replace contains sprintf("%s would be replaced (%s), forced by %s", [c.address, c.replace_order, concat(", ", c.replace_paths)]) if {
	some c in data.planview.changes
	c.action == "replace"
}

warn_update contains sprintf("%s changes %s", [c.address, concat(", ", c.changed)]) if {
	some c in data.planview.changes
	c.action == "update"
	not c.noise
}

deny_moved_db contains sprintf("%s moved from %s", [c.address, c.moved_from]) if {
	some c in data.planview.changes
	c.moved_from
	startswith(c.type, "aws_db")
}
