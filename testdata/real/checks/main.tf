# checks (nothing applied before). The plan succeeds: failing check blocks only warn.
# - check.passing:      assert true
# - check.failing:      assert false, custom message "CHECK-FAIL: ..."
# - check.unknown:      depends on terraform_data.pending.output (unknown at plan)
# - check.with_data:    scoped data source inside the check block (read_because_check_nested?)
# - terraform_data.app: precondition + postcondition, both known at plan (pass)
# - terraform_data.pending: postcondition on an unknown attribute (unknown)
# - output.endpoint:    output precondition (pass)
# - var.environment / var.replicas: validations (pass)
variable "environment" {
  type    = string
  default = "staging"

  validation {
    condition     = contains(["dev", "staging", "prod"], var.environment)
    error_message = "environment must be dev, staging or prod."
  }
}

variable "replicas" {
  type    = number
  default = 3

  validation {
    condition     = var.replicas > 0
    error_message = "replicas must be positive."
  }
}

resource "terraform_data" "app" {
  input = { env = var.environment, replicas = var.replicas }

  lifecycle {
    precondition {
      condition     = var.replicas <= 10
      error_message = "At most 10 replicas are supported."
    }

    postcondition {
      condition     = self.input.replicas == var.replicas
      error_message = "Replica count was not recorded."
    }
  }
}

resource "terraform_data" "pending" {
  input = "pending-value"

  lifecycle {
    postcondition {
      condition     = self.output == "pending-value"
      error_message = "terraform_data.pending.output does not echo its input."
    }
  }
}

check "passing" {
  assert {
    condition     = var.replicas >= 1
    error_message = "Need at least one replica."
  }
}

check "failing" {
  assert {
    condition     = var.environment == "prod"
    error_message = "CHECK-FAIL: environment is ${var.environment}, expected prod."
  }
}

check "unknown" {
  assert {
    condition     = terraform_data.pending.output == "pending-value"
    error_message = "pending output mismatch."
  }
}

check "with_data" {
  data "terraform_remote_state" "health" {
    backend = "local"
    config = {
      path = "remote.tfstate"
    }
  }

  assert {
    condition     = data.terraform_remote_state.health.outputs.status == "healthy"
    error_message = "Remote status is not healthy."
  }
}

output "endpoint" {
  value = "https://${var.environment}.example.com"

  precondition {
    condition     = var.environment != ""
    error_message = "environment must not be empty."
  }
}
