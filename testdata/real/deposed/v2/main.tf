# deposed, v2 (apply is EXPECTED TO FAIL): create_before_destroy replacement;
# the new object is created, then its postcondition fails (output is unknown at
# plan time, so the check runs during apply). The destroy of the old object
# never runs, so the old object stays in state as a deposed object.
resource "terraform_data" "web" {
  triggers_replace = "bad"
  input            = { generation = "bad", name = "web" }

  lifecycle {
    create_before_destroy = true
    postcondition {
      condition     = self.output.generation != "bad"
      error_message = "generation must not be bad"
    }
  }
}

resource "terraform_data" "bystander" {
  input = { name = "bystander", revision = 1 }
}
