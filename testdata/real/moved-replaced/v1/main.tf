# moved-replaced, v1 (applied first).
resource "terraform_data" "prod_db" {
  triggers_replace = "v1"
  input            = { app = "db", env = "prod" }
}
