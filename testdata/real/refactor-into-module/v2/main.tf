# refactor-into-module, v2: db and cache move into module.data_tier with
# identical inputs, NO moved blocks -> root objects deleted, module objects created.
module "data_tier" {
  source = "./modules/data_tier"
}

resource "terraform_data" "frontend" {
  input = { name = "frontend" }
}
