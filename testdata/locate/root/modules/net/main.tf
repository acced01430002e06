variable "zones" {
  type = list(string)
}

resource "terraform_data" "subnet" {
  count = length(var.zones)
  input = var.zones[count.index]
}

module "sub" {
  source   = "./sub"
  for_each = toset(var.zones)
  zone     = each.key
}
