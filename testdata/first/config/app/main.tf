resource "terraform_data" "server" {
  count = 2
  input = "app-${count.index}"
}

resource "terraform_data" "queue" {
  input = "jobs"
}

output "servers" {
  value = terraform_data.server[*].input
}
