# refactor-rename, v1 (applied first)
resource "terraform_data" "web_server" {
  input = {
    name  = "web"
    ports = [80, 443]
    tags  = { team = "frontend", env = "prod" }
  }
}

resource "terraform_data" "db_server" {
  input = {
    name    = "db"
    engine  = { kind = "postgres", version = "15" }
    storage = { size_gb = 100, encrypted = true }
  }
}

resource "terraform_data" "unrelated" {
  input = { name = "bastion", ports = [22] }
}
