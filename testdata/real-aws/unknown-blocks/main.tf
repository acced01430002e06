# unknown-blocks: planned (with -refresh=false) against the hand-written
# terraform.tfstate (see README.md), for nested blocks that become unknown
# while they had a value:
# - aws_instance.swap is replaced (its ami changes): the list blocks left out
#   of the configuration (metadata_options, credit_specification, ...) had a
#   value in the state and are known only after apply now; root_block_device
#   is configured, so only its computed attributes become unknown.
terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "5.100.0"
    }
  }
}

provider "aws" {
  region                      = "eu-west-1"
  access_key                  = "AKIAFAKEFAKEFAKEFAKE"
  secret_key                  = "fake-secret-key-not-real"
  skip_credentials_validation = true
  skip_requesting_account_id  = true
  skip_metadata_api_check     = true
  skip_region_validation      = true
}

resource "aws_instance" "swap" {
  ami           = "ami-0aaaaaaaaaaaaaaa1"
  instance_type = "t3.micro"
  subnet_id     = "subnet-0a1b2c3d4e5f60718"

  root_block_device {
    volume_size = 10
    volume_type = "gp3"
  }

  tags = {
    Name = "swap"
  }
}
