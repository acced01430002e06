variable "zone" {
  type = string
}

resource "terraform_data" "leaf" {
  input = "leaf-${var.zone}"

  lifecycle {
    postcondition {
      condition     = self.input != ""
      error_message = "leaf has no input."
    }
  }
}
