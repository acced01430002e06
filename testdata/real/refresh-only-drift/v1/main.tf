resource "terraform_data" "a" {
  input = "x"
}

output "label" {
  value = "v1"
}
