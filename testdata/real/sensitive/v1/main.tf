# sensitive, v1 (applied first, with v1/terraform.tfvars)
variable "rotating_secret" {
  type      = string
  sensitive = true
}

resource "terraform_data" "rotating" {
  input = var.rotating_secret
}
