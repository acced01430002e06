variable "key" { type = string }

resource "terraform_data" "per_key" {
  input = { key = var.key }
}
