# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/fake" {
  version     = "1.1.0"
  constraints = "~> 1.0"
  hashes = [
    "h1:a4JPVrvJWurEkQE1VUJPfxFgDjqxj47mMuEFjEp0Gag=",
  ]
}
