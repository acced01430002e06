# modules, v1 (applied first)
module "a" {
  source = "./modules/a"
  name   = "alpha"
  size   = 1
  label  = "inner-v1"
}

module "gone" {
  source = "./modules/gone"
}

module "multi" {
  source   = "./modules/multi"
  for_each = toset(["x", "y"])
  key      = each.key
}

resource "terraform_data" "root" {
  input = { module_a_name = "alpha" }
}

output "a_summary" {
  value = module.a.summary
}
