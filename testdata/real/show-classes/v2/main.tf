# v2 of show-classes: list context (an element changed in the middle, one
# inserted), a heredoc line changed, null transitions inside a value,
# jsonencode changes (a member added, JSON -> not JSON), a list <-> string
# type change, and an output partly unknown until apply.
resource "terraform_data" "lists" {
  input = {
    regions = ["r1", "r2", "r3", "r4", "r5", "R6", "r7", "r8", "k", "r9", "r10", "r11", "r12"]
    same_len = ["a", "b", "C", "d", "e", "f"]
  }
}

resource "terraform_data" "heredoc" {
  input = <<-EOT
    #!/bin/sh
    set -e
    echo one
    echo two
    echo THREE
    echo four
    echo five
    echo six
    exit 0
  EOT
}

resource "terraform_data" "nulls" {
  input = {
    drop = null
    c    = true
    gone = null
    keep = "k"
  }
}

resource "terraform_data" "json" {
  input = {
    policy  = jsonencode({ Version = "2012-10-17", Statement = [{ Effect = "Allow", Action = ["s3:GetObject", "s3:ListBucket", "s3:PutObject"], Resource = "*" }] })
    broken  = "{not json"
    created = jsonencode(["a"])
  }
}

resource "terraform_data" "retyped" {
  input = { r = "*", s = ["x", "y"] }
}

resource "terraform_data" "fresh" {
  input = "new"
}

output "partly" {
  value = { id = terraform_data.fresh.id, fixed = "f", list = [terraform_data.fresh.output, "k"] }
}
