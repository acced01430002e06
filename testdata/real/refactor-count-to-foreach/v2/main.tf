# refactor-count-to-foreach, v2: count = 2 -> for_each over two keys with the
# same objects, NO moved blocks -> [0],[1] deleted, ["alpha"],["beta"] created.
locals {
  instances = {
    alpha = { name = "alpha", size = "small", zones = ["a", "b"], labels = { tier = "web" } }
    beta  = { name = "beta", size = "large", zones = ["c"], labels = { tier = "batch" } }
  }
}

resource "terraform_data" "instance" {
  for_each = local.instances
  input    = each.value
}
