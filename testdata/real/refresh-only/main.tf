# refresh-only: applied, then `terraform plan -refresh-only` with the same
# configuration. terraform_data never drifts, so this is a no-changes plan.
resource "terraform_data" "app" {
  input = { name = "app", version = "1.0.0" }
}

resource "terraform_data" "workers" {
  count = 2
  input = "worker-${count.index}"
}

output "app_version" {
  value = terraform_data.app.output.version
}
