# public-names: sensitive values that equal public names and planview's own
# words. Terraform proves instance keys, module names, resource types and
# addresses public (it refuses sensitive for_each keys), so none of them may be
# rewritten; only values (and text taken from values) are masked.
# - var.region (sensitive) = "us-east-1", also an instance key of bucket
# - var.own_word (sensitive) = "violations" (a key of gate's JSON), never used
# - var.type_name (sensitive) = "terraform_data" (a resource type)
# - output.engine (sensitive) = "postgres-main", also a module name
variable "region" {
  type      = string
  default   = "us-east-1"
  sensitive = true
}

variable "own_word" {
  type      = string
  default   = "violations"
  sensitive = true
}

variable "type_name" {
  type      = string
  default   = "terraform_data"
  sensitive = true
}

resource "terraform_data" "bucket" {
  for_each = toset(["us-east-1", "eu-west-1"])
  input    = "bucket in ${each.key}"
}

resource "terraform_data" "uses_region" {
  input = var.region
}

module "postgres-main" {
  source = "./mod"
}

output "engine" {
  value     = "postgres-main"
  sensitive = true
}
