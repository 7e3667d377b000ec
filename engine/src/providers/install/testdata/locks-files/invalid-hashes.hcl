provider "example.com/acme/empty" {
  version = "1.0.0"
  hashes  = [] # ERROR: Invalid provider hash set
}

provider "example.com/acme/noscheme" {
  version = "1.0.0"
  hashes = [ # ERROR: Invalid provider hash string
    "h1:ok",
    "not-a-hash",
  ]
}

provider "example.com/acme/notlist" {
  version = "1.0.0"
  hashes  = "h1:abc" # ERROR: Invalid expression
}
