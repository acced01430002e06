# Blast-radius fixture: one replaced object (terraform_data.db) reached
# directly, through a local, through a module input and output, through
# depends_on, across two module levels and through count instances.
variable "db_version" {
  type = string
}

resource "terraform_data" "db" {
  input            = "db-${var.db_version}"
  triggers_replace = [var.db_version]
}

locals {
  db_addr = "${terraform_data.db.output}:5432"
  static  = "unchanged"
}

module "app" {
  source   = "./modules/app"
  db       = local.db_addr
  replicas = 2
}

resource "terraform_data" "dns" {
  input = module.app.endpoint
}

resource "terraform_data" "after_db" {
  input      = local.static
  depends_on = [terraform_data.db]
}

resource "terraform_data" "unrelated" {
  input = local.static
}

output "db_address" {
  value = local.db_addr
}
