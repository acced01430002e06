resource "terraform_data" "this" {
  input = { app = "mailer", queue = "outbound" }
}
