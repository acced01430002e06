# An override file: merged into terraform_data.each of main.tf, which stays
# the declaring block.
resource "terraform_data" "each" {
  input = "override-${each.key}"
}
