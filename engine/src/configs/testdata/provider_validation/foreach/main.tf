terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
}

variable "regions" {
  type    = map(string)
  default = { us = "us-east-1", eu = "eu-west-1" }
}

provider "aws" {
  region = "us-east-1"
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.value
}

resource "aws_s3_bucket" "logs" {
  bucket = "logs"
}

resource "aws_s3_bucket" "regional" {
  for_each = toset(["us"])
  provider = aws.by_region[each.key]
  bucket   = "regional-${each.key}"
}

data "aws_caller_identity" "eu" {
  provider = aws.by_region["eu"]
}

module "network" {
  source   = "./modules/network"
  for_each = toset(["us", "eu"])
  providers = {
    aws = aws.by_region[each.key]
  }
}

module "shared" {
  source = "./modules/network"
}
