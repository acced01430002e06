# Values longer than a table cell: `outputs`, `replace` and `summary` of the
# state cut them short and say where they are whole.
variable "motd" {
  type = string
}

variable "token" {
  type      = string
  sensitive = true
}

resource "terraform_data" "banner" {
  input            = var.motd
  triggers_replace = [var.motd]
}

resource "terraform_data" "settings" {
  input = {
    regions  = ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-2"]
    replicas = 3
    owner    = "platform-team"
  }
}

output "motd" {
  value = terraform_data.banner.output
}

output "regions" {
  value = terraform_data.settings.output.regions
}

output "owner" {
  value = "platform-team"
}

output "token" {
  value     = var.token
  sensitive = true
}
