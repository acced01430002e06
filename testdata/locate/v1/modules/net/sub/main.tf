resource "terraform_data" "leaf" {
  input = "leaf-v1"
}
