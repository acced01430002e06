# targeted, v2: both change, but the plan is made with -target=terraform_data.web,
# so the db change is left out and the plan is incomplete ("complete": false).
resource "terraform_data" "web" {
  input = { app = "web", size = "large" }
}

resource "terraform_data" "db" {
  triggers_replace = "v2"
  input            = { app = "db", size = "large" }
}
