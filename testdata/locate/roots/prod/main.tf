# prod: the web resource is declared on line 4.

# Declared here, in prod's own configuration:
resource "terraform_data" "web" {
  input = "prod"
}

output "env" {
  value = "prod"
}
