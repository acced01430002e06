# refactor-rename, v2: web_server -> frontend, db_server -> database,
# NO moved blocks -> delete + create of identical objects.
resource "terraform_data" "frontend" {
  input = {
    name  = "web"
    ports = [80, 443]
    tags  = { team = "frontend", env = "prod" }
  }
}

resource "terraform_data" "database" {
  input = {
    name    = "db"
    engine  = { kind = "postgres", version = "15" }
    storage = { size_gb = 100, encrypted = true }
  }
}

resource "terraform_data" "unrelated" {
  input = { name = "bastion", ports = [22] }
}
