# derived-secrets, v1 (applied first): the secrets, each copied by a
# terraform_data into an unmarked `output` (issue 32, secrets in derived forms).
# - pw:  sensitive string with & < > ! and -
# - pin: sensitive 4-digit string (a PIN)
# - key: sensitive multi-line string (a PEM-like key)
variable "pw" {
  type      = string
  sensitive = true
}

variable "pin" {
  type      = string
  sensitive = true
}

variable "key" {
  type      = string
  sensitive = true
}

resource "terraform_data" "pw" {
  input = var.pw
}

resource "terraform_data" "pin" {
  input = var.pin
}

resource "terraform_data" "key" {
  input = var.key
}
