# removed, v1 (applied first)
resource "terraform_data" "forget_me" {
  input = { note = "keep the real object, drop it from state" }
}

resource "terraform_data" "destroy_explicit" {
  input = { note = "removed block with destroy = true" }
}

resource "terraform_data" "drop_me" {
  input = { note = "deleted from config without a removed block" }
}

resource "terraform_data" "stays" {
  input = { note = "unchanged" }
}

module "legacy" {
  source = "./modules/legacy"
}
