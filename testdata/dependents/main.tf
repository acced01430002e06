# Blast-radius fixture: one replaced object (terraform_data.db) reached
# directly, through a module input and output, across two module levels and
# through count instances (certain from the plan's configuration), and through
# a local (the plan's configuration leaves locals out: a guess without the
# source); depends_on on an object that does not change.
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
  db       = "${terraform_data.db.output}:5432"
  replicas = 2
}

resource "terraform_data" "audit" {
  input = local.db_addr
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
