# blocks: planned (with -refresh=false) against the hand-written
# terraform.tfstate (see README.md), for what only the provider schema tells:
# - aws_instance.new is created: nested blocks (root_block_device,
#   ebs_block_device), blocks known only after apply
#   (capacity_reservation_specification, ...), legacy-SDK "" read as null.
# - aws_instance.app is updated in place: root_block_device's volume_size
#   10 -> 20 (a list block), metadata_options' http_tokens (a list block),
#   a tag added (a map), the unchanged blocks counted.
# - aws_ssm_parameter.token is created and aws_ssm_parameter.rotated updated
#   through value_wo / value_wo_version: a write-only attribute.
# - aws_security_group.db: an ingress rule (a set of objects) changes
#   its cidr_blocks (a set of strings): whole elements removed and added.
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

resource "aws_instance" "new" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "t3.micro"
  subnet_id     = "subnet-0a1b2c3d4e5f60718"

  root_block_device {
    volume_size = 20
    volume_type = "gp3"
  }

  ebs_block_device {
    device_name = "/dev/sdb"
    volume_size = 5
  }

  tags = {
    Name = "new"
  }
}

resource "aws_instance" "app" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "t3.micro"
  subnet_id     = "subnet-0a1b2c3d4e5f60718"

  root_block_device {
    volume_size = 20
    volume_type = "gp3"
  }

  metadata_options {
    http_tokens = "required"
  }

  tags = {
    Name = "app"
    Team = "platform"
  }
}

resource "aws_ssm_parameter" "token" {
  name             = "/app/token"
  type             = "SecureString"
  value_wo         = "not-a-real-token-1"
  value_wo_version = 1
}

resource "aws_ssm_parameter" "rotated" {
  name             = "/app/rotated"
  type             = "SecureString"
  value_wo         = "not-a-real-token-2"
  value_wo_version = 2
}

resource "aws_security_group" "db" {
  name        = "db"
  description = "databases"
  vpc_id      = "vpc-0a1b2c3d4e5f60718"

  ingress {
    description = "postgres"
    from_port   = 5432
    to_port     = 5432
    protocol    = "tcp"
    cidr_blocks = ["10.0.0.0/16", "10.2.0.0/16"]
  }

  ingress {
    description = "mysql"
    from_port   = 3306
    to_port     = 3306
    protocol    = "tcp"
    cidr_blocks = ["10.0.0.0/16"]
  }

  tags = {
    Name = "db"
  }
}
