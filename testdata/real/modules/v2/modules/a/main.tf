variable "name" { type = string }
variable "size" { type = number }
variable "label" { type = string }

resource "terraform_data" "keep" {
  input = var.name
}

resource "terraform_data" "change" {
  input = { name = var.name, size = var.size }
}

resource "terraform_data" "added" {
  input = "only in v2"
}

module "b" {
  source = "./modules/b"
  label  = var.label
}

output "summary" {
  value = { name = var.name, b = module.b.label }
}
