# sensitive, v2 (planned with v2/terraform.tfvars)
# - plain_secret: input = sensitive var (SECRET-MARKER-var-0001). terraform_data copies
#                 input into output; the plan marks input sensitive but output is unknown
#                 at plan time (after apply, state.json shows the leak).
# - db:           input object with one nested sensitive attribute (password = SECRET-MARKER-nested-0002)
# - rotating:     update, sensitive value SECRET-MARKER-old-0003 -> SECRET-MARKER-new-0004
#                 (the prior `output` attribute holds the old secret)
# - output.api_token: sensitive output (SECRET-MARKER-output-0005)
# - output.db_user, output.greeting: non-sensitive outputs
variable "secret_var" {
  type      = string
  sensitive = true
}

variable "db_password" {
  type      = string
  sensitive = true
}

variable "rotating_secret" {
  type      = string
  sensitive = true
}

variable "api_token" {
  type      = string
  sensitive = true
}

resource "terraform_data" "plain_secret" {
  input = var.secret_var
}

resource "terraform_data" "db" {
  input = {
    user     = "admin"
    password = var.db_password
    host     = "db.internal"
  }
}

resource "terraform_data" "rotating" {
  input = var.rotating_secret
}

output "api_token" {
  value     = var.api_token
  sensitive = true
}

output "db_user" {
  value = terraform_data.db.input.user
}

output "greeting" {
  value = "hello"
}
