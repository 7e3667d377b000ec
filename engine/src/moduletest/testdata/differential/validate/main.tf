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

output "network_arn" {
  value = sim_network.main.arn
}
