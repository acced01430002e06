resource "terraform_data" "deep" {
  count = 2
  input = "deep-${count.index}"
}
