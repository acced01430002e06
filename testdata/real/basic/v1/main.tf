# basic, v1 (applied first)
resource "terraform_data" "unchanged" {
  input = { name = "keep-me", size = 1 }
}

resource "terraform_data" "updated" {
  input = {
    name = "web"
    size = 2
    tags = { env = "dev", team = "platform" }
  }
}

resource "terraform_data" "deleted" {
  input = "going away"
}

output "static" {
  value = "constant"
}

output "updated_name" {
  value = terraform_data.updated.output.name
}

output "removed_output" {
  value = "bye"
}
