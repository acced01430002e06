check "passing" {
  assert {
    condition     = var.environment != ""
    error_message = "environment is empty."
  }
}

check "failing" {
  assert {
    condition     = var.environment == "prod"
    error_message = "CHECK-FAIL: environment is ${var.environment}, expected prod."
  }
}

resource "terraform_data" "guarded" {
  input = var.guard

  lifecycle {
    precondition {
      condition     = var.guard == "open"
      error_message = "PRECONDITION-FAIL: guard is ${var.guard}."
    }
  }
}
