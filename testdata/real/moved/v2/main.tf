# moved, v2
# - old_name    -> new_name                         (moved, no-op)
# - old_updated -> renamed_and_updated               (moved + update, replicas 2 -> 3)
# - into_module -> module.svc.terraform_data.this    (moved into a module, no-op)
# - list[0], list[1] -> list["first"], list["second"] (count -> for_each via moved, no-op)
moved {
  from = terraform_data.old_name
  to   = terraform_data.new_name
}

resource "terraform_data" "new_name" {
  input = { app = "billing", tier = "backend" }
}

moved {
  from = terraform_data.old_updated
  to   = terraform_data.renamed_and_updated
}

resource "terraform_data" "renamed_and_updated" {
  input = { app = "search", replicas = 3 }
}

moved {
  from = terraform_data.into_module
  to   = module.svc.terraform_data.this
}

module "svc" {
  source = "./modules/svc"
}

moved {
  from = terraform_data.list[0]
  to   = terraform_data.list["first"]
}

moved {
  from = terraform_data.list[1]
  to   = terraform_data.list["second"]
}

resource "terraform_data" "list" {
  for_each = { first = 0, second = 1 }
  input    = { slot = each.value, app = "worker" }
}
