# deposed, v3 (planned; state.json/state.txt show the state before this plan):
# the postcondition is relaxed, the current object is kept (no-op), the deposed
# object is deleted, and bystander gets an ordinary update.
resource "terraform_data" "web" {
  triggers_replace = "bad"
  input            = { generation = "bad", name = "web" }

  lifecycle {
    create_before_destroy = true
    postcondition {
      condition     = self.output.generation != "evil"
      error_message = "generation must not be evil"
    }
  }
}

resource "terraform_data" "bystander" {
  input = { name = "bystander", revision = 2 }
}
