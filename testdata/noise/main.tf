# Tags-only updates for `--ignore-attr` (issue 28): terraform_data's `input`
# stands for a resource with `tags` and provider default tags (`tags_all`).
# v1.tfvars is applied, then v2.tfvars planned (make.sh).

variable "default_tags" {
  type = map(string)
}

variable "sizes" {
  type = map(number)
}

variable "rotation" {
  type = string
}

locals {
  names = ["a", "b", "c", "d"]
}

# Three objects whose only change is a default tag (noise with
# --ignore-attr input.tags_all --ignore-attr output), one whose size changes too.
resource "terraform_data" "tagged" {
  for_each = toset(local.names)
  input = {
    size     = var.sizes[each.key]
    tags     = { Name = each.key }
    tags_all = merge(var.default_tags, { Name = each.key })
  }
}

# Its own tags change (noise with --ignore-attr input.tags too).
resource "terraform_data" "renamed" {
  input = {
    size     = 1
    tags     = { Name = "renamed-${var.rotation}" }
    tags_all = merge(var.default_tags, { Name = "renamed-${var.rotation}" })
  }
}

# Replaced (never noise: only in-place updates can be).
resource "terraform_data" "rotated" {
  triggers_replace = var.rotation
  input = {
    tags_all = var.default_tags
  }
}
