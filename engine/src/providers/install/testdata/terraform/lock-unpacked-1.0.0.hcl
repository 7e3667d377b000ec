# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/fake" {
  version     = "1.0.0"
  constraints = "1.0.0"
  hashes = [
    "h1:HhglWcZQRyKDvehAgJL0DLLQ7cA5Fbf2sfhgjf90rJo=",
  ]
}
