variable "label" { type = string }

resource "terraform_data" "inner" {
  input = { label = var.label }
}

resource "terraform_data" "inner_removed" {
  input = "b-only-in-v1"
}

output "label" {
  value = var.label
}
