# replace, v1 (applied first; then `terraform taint terraform_data.tainted`)
resource "terraform_data" "delete_then_create" {
  triggers_replace = "rev-1"
  input            = { role = "db", size = "large" }
}

resource "terraform_data" "create_then_delete" {
  triggers_replace = "rev-1"
  input            = { role = "lb", listeners = [80, 443] }

  lifecycle {
    create_before_destroy = true
  }
}

resource "terraform_data" "requested" {
  input = { role = "cache" }
}

resource "terraform_data" "trigger_source" {
  input = "config-v1"
}

resource "terraform_data" "triggered" {
  input = { role = "worker" }

  lifecycle {
    replace_triggered_by = [terraform_data.trigger_source]
  }
}

resource "terraform_data" "tainted" {
  input = { role = "queue" }
}
