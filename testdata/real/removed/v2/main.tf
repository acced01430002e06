# removed, v2
# - forget_me:        removed { lifecycle { destroy = false } } -> ["forget"]
# - module.legacy:    removed { from = module.legacy, destroy = false } -> ["forget"] for every instance
# - destroy_explicit: removed { lifecycle { destroy = true } } -> ["delete"]
# - drop_me:          simply deleted from config -> ["delete"] (delete_because_no_resource_config)
# - stays:            no-op
removed {
  from = terraform_data.forget_me

  lifecycle {
    destroy = false
  }
}

removed {
  from = module.legacy

  lifecycle {
    destroy = false
  }
}

removed {
  from = terraform_data.destroy_explicit

  lifecycle {
    destroy = true
  }
}

resource "terraform_data" "stays" {
  input = { note = "unchanged" }
}
