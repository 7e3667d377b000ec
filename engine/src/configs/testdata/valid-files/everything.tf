terraform {
  required_version = ">= 1.6, < 2.0"
  required_providers {
    aws = {
      source                = "hashicorp/aws"
      version               = "~> 5.0"
      configuration_aliases = [aws.east]
    }
    legacy = "1.2.3"
  }
  backend "s3" {
    bucket = "x"
  }
  encryption {
    key_provider "pbkdf2" "k" {
      passphrase = "correct-horse-battery-staple"
    }
  }
}

variable "regions" {
  type = map(object({
    name = string
    size = optional(number, 2)
  }))
  default = {
    a = { name = "eu" }
  }
  description = "Regions"
  sensitive   = false
  nullable    = false
  ephemeral   = false
  const       = true
  validation {
    condition     = length(var.regions) > 0
    error_message = "Need one."
  }
}

locals {
  keys = keys(var.regions)
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.value.name
}

resource "aws_instance" "web" {
  for_each   = var.regions
  provider   = aws.by_region[each.key]
  depends_on = [aws_instance.db]
  ami        = "ami-1"
  lifecycle {
    create_before_destroy = true
    prevent_destroy       = false
    ignore_changes        = [tags["x"], ami]
    replace_triggered_by  = [aws_instance.db.id]
    precondition {
      condition     = local.keys != null
      error_message = "keys"
    }
  }
  connection {
    host = self.public_ip
  }
  provisioner "local-exec" {
    when       = destroy
    on_failure = continue
    command    = "echo ${self.id}"
  }
}

resource "aws_instance" "db" {
  count    = 2
  provider = aws.by_region["a"]
  lifecycle {
    ignore_changes = all
  }
}

data "aws_ami" "x" {
  provider = aws.east
}

module "child" {
  source    = "./child"
  providers = {
    aws      = aws.by_region["a"]
    aws.east = aws.east
  }
}

output "ids" {
  value       = [for i in aws_instance.web : i.id]
  description = "IDs"
  sensitive   = true
  depends_on  = [module.child]
  precondition {
    condition     = length(local.keys) > 0
    error_message = "none"
  }
}

moved {
  from = aws_instance.old
  to   = aws_instance.db
}

import {
  to       = aws_instance.web["a"]
  id       = "i-123"
  provider = aws.east
}

removed {
  from = aws_instance.gone
  lifecycle {
    destroy = true
  }
  provisioner "local-exec" {
    when    = destroy
    command = "echo bye"
  }
}

check "health" {
  data "http" "h" {
    url = "https://example.com"
  }
  assert {
    condition     = data.http.h.status_code == 200
    error_message = "down"
  }
}
