# sensitivity-only, v2: the same values, only their sensitivity changes.
# - becomes_sensitive: input wrapped in sensitive(), value unchanged
# - stops_sensitive:   input was sensitive() in v1, plain here, value unchanged
# - nested:            input.password becomes sensitive, value unchanged
# - output.token:      becomes sensitive, value unchanged
resource "terraform_data" "becomes_sensitive" {
  input = sensitive("SECRET-MARKER-same-0101")
}

resource "terraform_data" "stops_sensitive" {
  input = "was-secret-now-plain-0104"
}

resource "terraform_data" "nested" {
  input = {
    user     = "admin"
    password = sensitive("SECRET-MARKER-nested-0102")
  }
}

output "token" {
  value     = sensitive("SECRET-MARKER-output-0103")
  sensitive = true
}
