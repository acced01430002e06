# data-read (nothing applied before)
# - data.terraform_remote_state.known:              config fully known -> read during plan
#                                                   (in prior_state/planned_values, no resource_change)
# - data.terraform_remote_state.config_unknown:     config.path comes from terraform_data.locator.output,
#                                                   unknown at plan -> ["read"] (read_because_config_unknown)
# - data.terraform_remote_state.dependency_pending: depends_on a resource with pending changes
#                                                   -> ["read"] (read_because_dependency_pending)
# remote.tfstate is a hand-written state file with outputs only; admin_token is
# a sensitive output there (UNMARKED-remote-0007).
resource "terraform_data" "locator" {
  input = "remote.tfstate"
}

data "terraform_remote_state" "known" {
  backend = "local"
  config = {
    path = "remote.tfstate"
  }
}

data "terraform_remote_state" "config_unknown" {
  backend = "local"
  config = {
    path = terraform_data.locator.output
  }
}

data "terraform_remote_state" "dependency_pending" {
  backend = "local"
  config = {
    path = "remote.tfstate"
  }

  depends_on = [terraform_data.locator]
}

resource "terraform_data" "uses_remote" {
  input = {
    region = data.terraform_remote_state.known.outputs.region
    vpc    = data.terraform_remote_state.known.outputs.vpc
  }
}

output "region" {
  value = data.terraform_remote_state.known.outputs.region
}

output "late_region" {
  value = data.terraform_remote_state.config_unknown.outputs.region
}
