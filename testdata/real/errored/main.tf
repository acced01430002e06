# errored (nothing applied before). terraform plan exits 1 because the
# precondition on terraform_data.guarded fails; Terraform 1.11 still writes
# plan.out, and `show -json` reports "errored": true.
variable "environment" {
  type    = string
  default = "prod"
}

resource "terraform_data" "before_error" {
  input = { env = var.environment, component = "network" }
}

resource "terraform_data" "guarded" {
  input = { env = var.environment, component = "database" }

  lifecycle {
    precondition {
      condition     = var.environment == "dev"
      error_message = "PRECONDITION-FAIL: guarded may only be planned in dev (got ${var.environment})."
    }
  }
}

resource "terraform_data" "after_error" {
  input = terraform_data.guarded.output
}

output "network" {
  value = terraform_data.before_error.input
}
