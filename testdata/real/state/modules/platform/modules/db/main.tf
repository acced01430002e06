variable "env" { type = string }

resource "terraform_data" "primary" {
  input = { engine = "postgres", env = var.env }
}

resource "terraform_data" "replica" {
  count = 2
  input = { engine = "postgres", env = var.env, index = count.index }
}

output "name" {
  value = "db-${var.env}"
}
