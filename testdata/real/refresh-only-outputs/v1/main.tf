# refresh-only-outputs, v1 (applied first)
resource "terraform_data" "app" {
  input = { name = "app", version = "1.0.0" }
}

output "app_version" {
  value = terraform_data.app.output.version
}

output "label" {
  value = "v1-label"
}
