# The reviewed change: app grows, a job is added whose input is only known at
# apply (timestamp()), so its id and input are unknown in every plan.
resource "terraform_data" "app" {
  input = { size = "large", team = "a" }
}

resource "terraform_data" "worker" {
  input = "w1"
}

resource "terraform_data" "cache" {
  input = "c1"
}

resource "terraform_data" "job" {
  input = timestamp()
}

output "app" {
  value = terraform_data.app.output
}
