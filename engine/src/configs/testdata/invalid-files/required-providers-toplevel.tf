required_providers {
  aws = "~> 5.0"
}
