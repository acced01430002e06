variable "env" { type = string }

resource "terraform_data" "cluster" {
  input = { env = var.env, nodes = 3 }
}

module "db" {
  source = "./modules/db"
  env    = var.env
}

output "db_name" {
  value = module.db.name
}
