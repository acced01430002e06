# staging: the web resource is declared further down than in prod, so a
# location read from the wrong root's configuration would be on the wrong line.

output "env" {
  value = "staging"
}

variable "size" {
  default = 1
}

resource "terraform_data" "web" {
  input = "staging-${var.size}"
}
