variable "db" {
  type = string
}

variable "replicas" {
  type = number
}

resource "terraform_data" "server" {
  count = var.replicas
  input = "${var.db}#${count.index}"
}

resource "terraform_data" "static" {
  input = var.replicas
}

module "edge" {
  source   = "../edge"
  upstream = terraform_data.server[0].output
}

output "endpoint" {
  value = module.edge.url
}
