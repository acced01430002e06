# A module `init` fetches (make.sh packs this directory into fetched.tar.gz;
# the root's module "fetched" names that archive with a `file::` source).
resource "terraform_data" "pkg" {
  input = "fetched"
}

module "inner" {
  source = "./inner"
}
