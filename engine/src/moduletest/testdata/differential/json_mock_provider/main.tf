terraform {
  required_providers {
    sim = {
      source = "terrace/sim"
    }
  }
}

provider "sim" {
  region = "us-east-1"
}

resource "sim_network" "main" {
  cidr_block = "10.0.0.0/16"
}

resource "sim_subnet" "a" {
  network_id = sim_network.main.id
  cidr_block = "10.0.1.0/24"
}

data "sim_regions" "all" {}

output "network_arn" {
  value = sim_network.main.arn
}
