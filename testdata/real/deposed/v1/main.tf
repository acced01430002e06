# deposed, v1 (applied successfully, generation "one")
resource "terraform_data" "web" {
  triggers_replace = "one"
  input            = { generation = "one", name = "web" }

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
