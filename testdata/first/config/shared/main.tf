resource "terraform_data" "bucket" {
  input = "shared-artifacts"
}

output "bucket" {
  value = terraform_data.bucket.output
}
