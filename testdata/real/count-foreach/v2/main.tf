# count-foreach, v2
# - counted:  count 3 -> 1   ([1],[2] deleted: delete_because_count_index)
# - keyed:    keys {a,b,c} -> {a,d,e}  (b,c deleted: delete_because_each_key; d,e created)
# - grown:    count 1 -> 3   ([1],[2] created)
# - reshaped: for_each -> count (["x"] deleted, [0] created)
resource "terraform_data" "counted" {
  count = 1
  input = { index = count.index, name = "node-${count.index}" }
}

resource "terraform_data" "keyed" {
  for_each = { a = 1, d = 4, e = 5 }
  input    = { key = each.key, weight = each.value }
}

resource "terraform_data" "grown" {
  count = 3
  input = "replica-${count.index}"
}

resource "terraform_data" "reshaped" {
  count = 1
  input = "shape-x"
}
