# Rego v0 syntax (no `if`/`contains`): needs --rego-version v0, as with conftest.
package main

deny[msg] {
	rc := input.resource_changes[_]
	rc.change.actions[_] == "delete"
	msg := sprintf("%s would be destroyed", [rc.address])
}

warn[msg] {
	rc := input.resource_changes[_]
	rc.change.actions == ["update"]
	msg := sprintf("%s would be updated in place", [rc.address])
}
