# count-foreach, v1 (applied first)
resource "terraform_data" "counted" {
  count = 3
  input = { index = count.index, name = "node-${count.index}" }
}

resource "terraform_data" "keyed" {
  for_each = { a = 1, b = 2, c = 3 }
  input    = { key = each.key, weight = each.value }
}

resource "terraform_data" "grown" {
  count = 1
  input = "replica-${count.index}"
}

# for_each in v1, count in v2 -> delete_because_wrong_repetition expected
resource "terraform_data" "reshaped" {
  for_each = toset(["x"])
  input    = "shape-${each.key}"
}
