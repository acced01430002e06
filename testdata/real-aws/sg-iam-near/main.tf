# sg-iam-near: like sg-iam, but nothing in the lists is left exactly as it was,
# planned (with -refresh=false) against the hand-written terraform.tfstate:
# - aws_security_group.web: rule 22 from 10.0.0.0/8 is gone, rule 80 is added,
#   and rule 443 is kept but its description changes ("HTTPS" -> "https").
# - aws_iam_policy.reader: the two statements swap places, and the "Objects"
#   statement gains s3:PutObject.
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

resource "aws_security_group" "web" {
  name        = "web"
  description = "web servers"
  vpc_id      = "vpc-0a1b2c3d4e5f60718"

  ingress {
    description = "https"
    from_port   = 443
    to_port     = 443
    protocol    = "tcp"
    cidr_blocks = ["0.0.0.0/0"]
  }

  ingress {
    description = "http"
    from_port   = 80
    to_port     = 80
    protocol    = "tcp"
    cidr_blocks = ["0.0.0.0/0"]
  }

  egress {
    from_port   = 0
    to_port     = 0
    protocol    = "-1"
    cidr_blocks = ["0.0.0.0/0"]
  }

  tags = {
    Name = "web"
  }
}

resource "aws_iam_policy" "reader" {
  name = "bucket-reader"
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [
      {
        Sid      = "Describe"
        Effect   = "Allow"
        Action   = ["ec2:DescribeInstances"]
        Resource = "*"
      },
      {
        Sid      = "Objects"
        Effect   = "Allow"
        Action   = ["s3:GetObject", "s3:ListBucket", "s3:PutObject"]
        Resource = ["arn:aws:s3:::example-bucket", "arn:aws:s3:::example-bucket/*"]
      },
    ]
  })
}
