# basic, v2 (planned against v1's state)
# - terraform_data.unchanged: no-op
# - terraform_data.updated:   input changes -> update in place
# - terraform_data.deleted:   removed from config -> delete (delete_because_no_resource_config)
# - terraform_data.created:   new -> create
resource "terraform_data" "unchanged" {
  input = { name = "keep-me", size = 1 }
}

resource "terraform_data" "updated" {
  input = {
    name = "web"
    size = 3
    tags = { env = "prod", team = "platform" }
  }
}

resource "terraform_data" "created" {
  input = ["alpha", "beta"]
}

output "static" {
  value = "constant"
}

output "updated_name" {
  value = terraform_data.updated.output.name
}

output "created_id" {
  value = terraform_data.created.id
}
