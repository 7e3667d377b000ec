# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/fake" {
  version     = "1.2.0"
  constraints = "1.2.0"
  hashes = [
    "h1:jtulmOcUW4sBRqRYPNCPgaUx4K+zi3xUd4iHnjBKrzM=",
    "zh:b428a11b2774d59906bc06e10c266ae83cbfdb4315884cf61c659860b3858462",
  ]
}
