# The applied configuration the pairs are planned against.
resource "terraform_data" "app" {
  input = { size = "small", team = "a" }
}

resource "terraform_data" "worker" {
  input = "w1"
}

resource "terraform_data" "cache" {
  input = "c1"
}

output "app" {
  value = terraform_data.app.output
}
