# state: applied, then `terraform taint 'terraform_data.counted[1]'`; state.json /
# state.txt are `terraform show` of the result. plan.json is a plan on top of it
# (the tainted instance gets replaced).
variable "state_secret" {
  type      = string
  sensitive = true
}

data "terraform_remote_state" "shared" {
  backend = "local"
  config = {
    path = "remote.tfstate"
  }
}

resource "terraform_data" "root" {
  input = {
    region = data.terraform_remote_state.shared.outputs.region
    cidrs  = data.terraform_remote_state.shared.outputs.vpc.subnets
    big    = 12345678901234567890123
  }
}

resource "terraform_data" "counted" {
  count = 2
  input = "count-${count.index}"
}

resource "terraform_data" "keyed" {
  for_each = { blue = 1, green = 2 }
  input    = { colour = each.key, weight = each.value }
}

resource "terraform_data" "holds_secret" {
  input = { user = "svc", token = var.state_secret }
}

module "platform" {
  source = "./modules/platform"
  env    = "prod"
}

module "svc" {
  source   = "./modules/svc"
  for_each = toset(["api", "web"])
  name     = each.key
}

output "plain" {
  value = terraform_data.root.input.region
}

output "secret" {
  value     = var.state_secret
  sensitive = true
}

output "platform" {
  value = module.platform.db_name
}
