provider "" { # ERROR: Invalid provider source address

}

provider "hashicorp/aws" { # ERROR: Non-normalized provider source address

}

provider "aws" { # ERROR: Non-normalized provider source address

}

provider "a/b/c/d" { # ERROR: Invalid provider source address

}

provider "Registry.opentofu.org/acme/thing" { # ERROR: Non-normalized provider source address

}

provider "registry.opentofu.org/acme/Thing" { # ERROR: Non-normalized provider source address

}

provider "example.com/acme/thing" {
  version = "1.0.0"
}

provider "example.com/acme/thing" { # ERROR: Duplicate provider lock
}

# Legacy addresses only ever existed for the 0.13 upgrade.
provider "registry.opentofu.org/-/null" { # ERROR: Invalid provider source address
}

# Built-in providers have no version of their own.
provider "terraform.io/builtin/terraform" { # ERROR: Invalid provider source address
}
