resource "terraform_data" "one" {
  input = "gone-1"
}

resource "terraform_data" "two" {
  count = 2
  input = "gone-2-${count.index}"
}
