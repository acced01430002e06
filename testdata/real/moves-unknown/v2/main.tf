# moves-unknown, v2: `old` is gone; `fresh` is new and its only configured
# attribute is unknown until apply (it depends on another new object).
# The two share no known, non-null attribute: they are not a move.
resource "terraform_data" "seed" {
  input = "seed"
}

resource "terraform_data" "fresh" {
  input = terraform_data.seed.id
}
