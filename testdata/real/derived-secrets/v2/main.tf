# derived-secrets, v2 (planned): values derived from the unmarked copies of v1's
# secrets with Terraform's functions, none of them marked sensitive: every one
# must be masked wherever planview prints it (issue 32, secrets in derived forms).
variable "pw" {
  type      = string
  sensitive = true
}

variable "pin" {
  type      = string
  sensitive = true
}

variable "key" {
  type      = string
  sensitive = true
}

resource "terraform_data" "pw" {
  input = var.pw
}

resource "terraform_data" "pin" {
  input = var.pin
}

resource "terraform_data" "key" {
  input = var.key
}

locals {
  pw  = terraform_data.pw.output
  pin = terraform_data.pin.output
  derived = {
    b64          = base64encode(local.pw)
    basic        = "Basic ${base64encode("admin:${local.pw}")}"
    url          = "https://admin:${urlencode(local.pw)}@db.internal/app"
    upper        = upper(local.pw)
    lower        = lower(local.pw)
    md5          = md5(local.pw)
    sha1         = sha1(local.pw)
    sha256       = sha256(local.pw)
    sha512       = sha512(local.pw)
    base64sha256 = base64sha256(local.pw)
    base64sha512 = base64sha512(local.pw)
    pin_b64      = base64encode(local.pin)
    pin_sha256   = sha256(local.pin)
    pin_md5      = md5(local.pin)
    key_line     = split("\n", terraform_data.key.output)[1]
  }
}

resource "terraform_data" "derived" {
  input = local.derived
}

output "derived" {
  value = local.derived
}

# A secret as an object key: the type shows the key.
output "keyed" {
  value = { (local.pw) = 1 }
}

output "keyed_sensitive" {
  value     = { (var.pw) = 1 }
  sensitive = true
}
