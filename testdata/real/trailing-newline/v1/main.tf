# trailing-newline, v1: multi-line strings with and without a final newline.
resource "terraform_data" "drops_newline" {
  input = "line one\nline two\n"
}

resource "terraform_data" "adds_newline" {
  input = "line one\nline two"
}

resource "terraform_data" "nested" {
  input = {
    script = "#!/bin/sh\necho hi\n"
    name   = "x"
  }
}
