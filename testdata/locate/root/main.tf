# The configuration planview locates (the plan is made here, against the
# state of ../v1): several files, JSON syntax, an override file, nested local
# modules, an init-fetched module, count/for_each, moved/removed/import blocks.
resource "terraform_data" "count" {
  count = 2 # was 3: [2] is destroyed, located here
  input = "c${count.index}"
}

resource "terraform_data" "each" {
  for_each = toset(["a", "b", "c"])
  input    = each.key
}

moved {
  from = terraform_data.old_name
  to   = terraform_data.new_name
}

resource "terraform_data" "new_name" {
  input = "renamed"
}

removed {
  from = terraform_data.legacy

  lifecycle {
    destroy = false
  }
}

# terraform_data.gone is gone from the configuration, with no removed block.

import {
  to = terraform_data.imported
  id = "imported-id"
}

resource "terraform_data" "imported" {
}

module "net" {
  source = "./modules/net"
  zones  = ["a", "b"]
}

removed {
  from = module.old

  lifecycle {
    destroy = false
  }
}

module "fetched" {
  source = "file::/tmp/planview-locate-vendor/fetched.tar.gz"
}
