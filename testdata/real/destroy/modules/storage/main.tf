variable "bucket" { type = string }

resource "terraform_data" "bucket" {
  input = { name = var.bucket, versioning = true }
}

output "bucket_id" {
  value = terraform_data.bucket.id
}
