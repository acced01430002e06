# moved, v1 (applied first)
resource "terraform_data" "old_name" {
  input = { app = "billing", tier = "backend" }
}

resource "terraform_data" "old_updated" {
  input = { app = "search", replicas = 2 }
}

resource "terraform_data" "into_module" {
  input = { app = "mailer", queue = "outbound" }
}

resource "terraform_data" "list" {
  count = 2
  input = { slot = count.index, app = "worker" }
}
