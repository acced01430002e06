# noop: applied, then planned again with the same configuration -> "No changes."
data "terraform_remote_state" "shared" {
  backend = "local"
  config = {
    path = "remote.tfstate"
  }
}

resource "terraform_data" "app" {
  input = { name = "app", region = data.terraform_remote_state.shared.outputs.region }
}

resource "terraform_data" "workers" {
  for_each = toset(["a", "b"])
  input    = "worker-${each.key}"
}

output "app_id" {
  value = terraform_data.app.id
}
