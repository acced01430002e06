variable "upstream" {
  type = string
}

resource "terraform_data" "lb" {
  input = var.upstream
}

output "url" {
  value = "https://${terraform_data.lb.output}"
}
