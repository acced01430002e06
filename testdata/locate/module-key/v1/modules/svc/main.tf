variable "size" {
  type = number
}

resource "terraform_data" "node" {
  input = var.size
}
