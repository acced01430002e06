variable "name" { type = string }

resource "terraform_data" "this" {
  input = { service = var.name }
}
