terraform {
  required_providers {
    sim = {
      source = "terrace/sim"
    }
  }
}

variable "a" {
  type = string
}

variable "b" {
  type    = string
  default = "b-default"
}

variable "c" {
  type    = string
  default = "c-default"
}

provider "sim" {
  region   = "eu-west-1"
  data_dir = "sim-data"
}

resource "sim_bucket" "d" {
  name = var.a
}

output "joined" {
  value = "${var.a}/${var.b}/${var.c}"
}
