resource "terraform_data" "a" {
  input = "legacy-a"
}

resource "terraform_data" "b" {
  count = 2
  input = "legacy-b-${count.index}"
}
