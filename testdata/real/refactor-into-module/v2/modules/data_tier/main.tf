resource "terraform_data" "db" {
  input = {
    engine   = "postgres"
    version  = "15"
    settings = { max_connections = 200, ssl = true }
  }
}

resource "terraform_data" "cache" {
  input = {
    engine = "redis"
    nodes  = 3
    ports  = [6379]
  }
}
