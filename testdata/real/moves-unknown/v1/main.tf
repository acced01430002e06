# moves-unknown, v1: an object configured with nothing (input null).
resource "terraform_data" "old" {
}
