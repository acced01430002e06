# Refresh-only plan with drift: terraform_data never drifts by itself, but in
# refresh-only mode an object that moved is drift (resource_drift); the
# output's new value is an output change.
resource "terraform_data" "b" {
  input = "x"
}

moved {
  from = terraform_data.a
  to   = terraform_data.b
}

output "label" {
  value = "v2"
}
