# sensitivity-only, v1: the values, some of them not yet sensitive.
resource "terraform_data" "becomes_sensitive" {
  input = "SECRET-MARKER-same-0101"
}

resource "terraform_data" "stops_sensitive" {
  input = sensitive("was-secret-now-plain-0104")
}

resource "terraform_data" "nested" {
  input = {
    user     = "admin"
    password = "SECRET-MARKER-nested-0102"
  }
}

output "token" {
  value = "SECRET-MARKER-output-0103"
}
