# replace, v2 (planned with -replace=terraform_data.requested)
# - delete_then_create: triggers_replace changes -> ["delete","create"] (replace_because_cannot_update)
# - create_then_delete: same, with create_before_destroy -> ["create","delete"]
# - requested:          unchanged, but -replace=ADDR -> replace_by_request
# - trigger_source:     input changes -> update
# - triggered:          replace_triggered_by trigger_source -> replace_by_triggers
# - tainted:            tainted in state after v1 apply -> replace_because_tainted
resource "terraform_data" "delete_then_create" {
  triggers_replace = "rev-2"
  input            = { role = "db", size = "large" }
}

resource "terraform_data" "create_then_delete" {
  triggers_replace = "rev-2"
  input            = { role = "lb", listeners = [80, 443] }

  lifecycle {
    create_before_destroy = true
  }
}

resource "terraform_data" "requested" {
  input = { role = "cache" }
}

resource "terraform_data" "trigger_source" {
  input = "config-v2"
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
