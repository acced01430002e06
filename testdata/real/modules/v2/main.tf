# modules, v2
# - module.a.terraform_data.keep:                    no-op
# - module.a.terraform_data.change:                  update (size 1 -> 2)
# - module.a.terraform_data.drop:                    delete (delete_because_no_resource_config)
# - module.a.terraform_data.added:                   create
# - module.a.module.b.terraform_data.inner:          update (label changes)
# - module.a.module.b.terraform_data.inner_removed:  delete
# - module.a.module.b.terraform_data.inner_added:    create
# - module.gone.*:                                   delete (module call removed; Terraform 1.11
#                                                    reports delete_because_no_resource_config)
# - module.multi["y"].*:                             delete (module instance gone: delete_because_no_module)
module "a" {
  source = "./modules/a"
  name   = "alpha"
  size   = 2
  label  = "inner-v2"
}

module "multi" {
  source   = "./modules/multi"
  for_each = toset(["x"])
  key      = each.key
}

resource "terraform_data" "root" {
  input = { module_a_name = "alpha" }
}

output "a_summary" {
  value = module.a.summary
}
