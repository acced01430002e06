variable "label" { type = string }

resource "terraform_data" "inner" {
  input = { label = var.label }
}

resource "terraform_data" "inner_added" {
  input = "b-only-in-v2"
}

output "label" {
  value = var.label
}
