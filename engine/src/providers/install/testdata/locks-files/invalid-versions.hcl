provider "example.com/acme/missing" { # ERROR: Missing required argument
}

provider "example.com/acme/bad" {
  version = "1.0.0.0" # ERROR: Invalid provider version number
}

provider "example.com/acme/short" {
  version = "1.0" # ERROR: Invalid provider version number
}

provider "example.com/acme/null" {
  version = null # ERROR: Missing required argument
}

provider "example.com/acme/constraints" {
  version     = "1.0.0"
  constraints = "~> 1" # ERROR: Invalid provider version constraints
}

provider "example.com/acme/badconstraints" {
  version     = "1.0.0"
  constraints = "=> 1.0" # ERROR: Invalid provider version constraints
}

provider "example.com/acme/variable" {
  version = var.v # ERROR: Variables not allowed
}

provider "example.com/acme/list" {
  version = ["1.0.0"] # ERROR: Unsuitable value type
}
