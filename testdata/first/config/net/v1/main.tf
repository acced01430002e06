resource "terraform_data" "vpc" {
  input = "10.0.0.0/16"
}

resource "terraform_data" "subnet" {
  count = 2
  input = "10.0.${count.index}.0/24"
}

resource "terraform_data" "legacy_gateway" {
  input = "gw-1"
}
