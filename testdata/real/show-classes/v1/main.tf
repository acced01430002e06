# v1 of show-classes: the values v2 changes (see testdata/real/README.md).
resource "terraform_data" "lists" {
  input = {
    regions = ["r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12"]
    same_len = ["a", "b", "c", "d", "e", "f"]
  }
}

resource "terraform_data" "heredoc" {
  input = <<-EOT
    #!/bin/sh
    set -e
    echo one
    echo two
    echo three
    echo four
    echo five
    echo six
    exit 0
  EOT
}

resource "terraform_data" "nulls" {
  input = {
    drop = "d"
    c    = null
    gone = { a = 1, b = null }
    keep = "k"
  }
}

resource "terraform_data" "json" {
  input = {
    policy  = jsonencode({ Version = "2012-10-17", Statement = [{ Effect = "Allow", Action = ["s3:GetObject", "s3:ListBucket"], Resource = "*" }] })
    broken  = jsonencode({ a = 1 })
    created = "plain"
  }
}

resource "terraform_data" "retyped" {
  input = { r = ["x", "y"], s = "*" }
}
