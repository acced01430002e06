# trailing-newline, v2: only the final newline changes.
# - drops_newline: "line one\nline two\n" -> "line one\nline two"
# - adds_newline:  "line one\nline two"   -> "line one\nline two\n"
# - nested:        input.script loses its final newline
resource "terraform_data" "drops_newline" {
  input = "line one\nline two"
}

resource "terraform_data" "adds_newline" {
  input = "line one\nline two\n"
}

resource "terraform_data" "nested" {
  input = {
    script = "#!/bin/sh\necho hi"
    name   = "x"
  }
}
