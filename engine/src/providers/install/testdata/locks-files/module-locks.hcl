module "foo" { # WARNING: Dependency locks for modules are not yet supported
}

module "bar" {
}

provider "example.com/acme/thing" {
  version = "2.0.0"
}

resource "x" "y" { # ERROR: Unsupported block type
}
