# import (nothing applied before; planned with -generate-config-out=generated.tf,
# the generated file is kept as generated.tf.txt)
# - plain:          import block + empty config     -> ["no-op"] with importing.id
# - with_input:     import block + config with input -> ["update"] with importing.id
# - replaced:       import block + triggers_replace  -> replace while importing
# - generated:      import block, no resource block  -> ["no-op"], importing + generated_config
# - fresh:          ordinary create
import {
  to = terraform_data.plain
  id = "legacy-id-0001"
}

resource "terraform_data" "plain" {}

import {
  to = terraform_data.with_input
  id = "legacy-id-0002"
}

resource "terraform_data" "with_input" {
  input = { owner = "team-a", cost_center = 1234 }
}

import {
  to = terraform_data.replaced
  id = "legacy-id-0003"
}

resource "terraform_data" "replaced" {
  triggers_replace = "rev-1"
  input            = { owner = "team-b" }
}

import {
  to = terraform_data.generated
  id = "legacy-id-0004"
}

resource "terraform_data" "fresh" {
  input = "brand new"
}
