resource "terraform_data" "subnet" {
  input = "subnet"
}

module "sub" {
  source = "./sub"
}
