# destroy: applied, then `terraform plan -destroy`
data "terraform_remote_state" "shared" {
  backend = "local"
  config = {
    path = "remote.tfstate"
  }
}

resource "terraform_data" "network" {
  input = {
    cidr   = "10.0.0.0/16"
    region = data.terraform_remote_state.shared.outputs.region
  }
}

resource "terraform_data" "server" {
  count = 2
  input = { name = "server-${count.index}", network = terraform_data.network.id }
}

module "storage" {
  source = "./modules/storage"
  bucket = "logs"
}

output "network_id" {
  value = terraform_data.network.id
}
