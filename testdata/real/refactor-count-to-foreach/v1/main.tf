# refactor-count-to-foreach, v1 (applied first)
locals {
  instances = [
    { name = "alpha", size = "small", zones = ["a", "b"], labels = { tier = "web" } },
    { name = "beta", size = "large", zones = ["c"], labels = { tier = "batch" } },
  ]
}

resource "terraform_data" "instance" {
  count = length(local.instances)
  input = local.instances[count.index]
}
