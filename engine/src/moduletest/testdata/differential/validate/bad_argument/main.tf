terraform {
  required_providers {
    sim = {
      source = "terrace/sim"
    }
  }
}

# Never planned (count = 0), so only validation sees the misspelt argument.
resource "sim_network" "unused" {
  count       = 0
  cidr_blocks = "10.0.0.0/16"
}

output "ok" {
  value = "yes"
}
