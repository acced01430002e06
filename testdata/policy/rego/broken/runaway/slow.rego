package main

# A comprehension of 25 million elements: stopped by --rego-timeout.
deny contains msg if {
	n := count([x | some a in numbers.range(1, 5000); some b in numbers.range(1, 5000); x := a * b])
	msg := sprintf("%d", [n])
}
