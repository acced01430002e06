# refresh-only-outputs, v2: planned with -refresh-only. The resource config
# changes (ignored by refresh-only), an output value changes and a new output
# appears (refresh-only plans do update outputs).
resource "terraform_data" "app" {
  input = { name = "app", version = "2.0.0" }
}

output "app_version" {
  value = terraform_data.app.output.version
}

output "label" {
  value = "v2-label"
}

output "new_output" {
  value = "added-in-v2"
}
