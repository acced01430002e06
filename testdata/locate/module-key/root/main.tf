# The configuration planned against v1's state: module "svc" loses its key b
# and module "pool" shrinks to one instance, so
# module.svc["b"].terraform_data.node and module.pool[1].terraform_data.node
# are destroyed (delete_because_no_module) while the block that declares
# terraform_data.node in modules/svc still declares it for the instances
# that remain.
module "svc" {
  source   = "./modules/svc"
  for_each = { a = 1 }
  size     = each.value
}

module "pool" {
  source = "./modules/svc"
  count  = 1
  size   = count.index
}
