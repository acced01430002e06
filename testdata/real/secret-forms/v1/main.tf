# secret-forms, v1 (applied first): secrets copied into unmarked places in the
# forms planview must still mask (issue 15 items 1, 3, 6).
# - pw:        sensitive string with & < > (jsonencode writes them \u0026 \u003c \u003e)
# - pin:       sensitive number
# terraform_data copies `input` into an unmarked `output` after apply, so
# json.input = jsonencode({...a copy of pw...}) and pin_copy.input are unmarked copies.
variable "pw" {
  type      = string
  sensitive = true
}

variable "pin" {
  type      = number
  sensitive = true
}

resource "terraform_data" "pw" {
  input = var.pw
}

resource "terraform_data" "pin" {
  input = var.pin
}

resource "terraform_data" "json" {
  input = jsonencode({ password = terraform_data.pw.output, user = "svc" })
}

resource "terraform_data" "pin_copy" {
  input = terraform_data.pin.output
}

output "json" {
  value = terraform_data.json.output
}

output "pin_copy" {
  value = terraform_data.pin_copy.output
}
