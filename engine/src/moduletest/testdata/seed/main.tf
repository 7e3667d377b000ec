terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}

variable "aws_regions" {
  type = map(object({
    disabled = optional(bool, false)
  }))
}

provider "aws" {
  alias    = "by_region"
  for_each = var.aws_regions
  region   = each.key
}

resource "aws_instance" "server" {
  for_each = { for region, cfg in var.aws_regions : region => cfg if !cfg.disabled }
  provider = aws.by_region[each.key]
  ami      = "ami-${each.key}"
}

output "ids" {
  value = { for k, s in aws_instance.server : k => s.id }
}
