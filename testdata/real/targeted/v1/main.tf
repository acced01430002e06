# targeted, v1 (applied first): two independent objects.
resource "terraform_data" "web" {
  input = { app = "web", size = "small" }
}

resource "terraform_data" "db" {
  input = { app = "db", size = "small" }
}
