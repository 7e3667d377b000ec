terraform {
  required_providers {
    sim = {
      source = "terrace/sim"
    }
  }
}

variable "bucket" {
  type = string
}

resource "sim_bucket" "logs" {
  name = var.bucket
}

output "arn" {
  value = sim_bucket.logs.arn
}
