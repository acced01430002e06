# v1: two instances of module "svc" (keys a and b), two of "pool" (count = 2).
module "svc" {
  source   = "./modules/svc"
  for_each = { a = 1, b = 2 }
  size     = each.value
}

module "pool" {
  source = "./modules/svc"
  count  = 2
  size   = count.index
}
