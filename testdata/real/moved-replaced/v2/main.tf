# moved-replaced, v2: the object is moved to a new address (a `moved` block)
# and, in the same plan, replaced (its triggers_replace changes). A gate that
# looks only at the new address misses that the old, protected one is replaced.
moved {
  from = terraform_data.prod_db
  to   = terraform_data.scratch
}

resource "terraform_data" "scratch" {
  triggers_replace = "v2"
  input            = { app = "db", env = "prod" }
}
