resource "terraform_data" "vpc" {
  input = "10.0.0.0/16"
}

resource "terraform_data" "subnet" {
  count = 3
  input = "10.0.${count.index}.0/24"
}

# terraform_data.legacy_gateway is gone: the plan destroys it.

output "vpc_cidr" {
  value = terraform_data.vpc.output
}

output "max_hosts" {
  value = 12345678901234567890123
}
