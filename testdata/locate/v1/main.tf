# The state the plan of ../root is made against (applied first by make.sh).
resource "terraform_data" "count" {
  count = 3
  input = "c${count.index}"
}

resource "terraform_data" "each" {
  for_each = toset(["a", "b"])
  input    = each.key
}

resource "terraform_data" "old_name" {
  input = "renamed"
}

resource "terraform_data" "legacy" {
  input = "forgotten"
}

resource "terraform_data" "gone" {
  input = "deleted without a trace"
}

module "net" {
  source = "./modules/net"
}

module "old" {
  source = "./modules/net"
}
