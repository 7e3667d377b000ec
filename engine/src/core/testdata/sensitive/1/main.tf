variable "secret" {
  type      = string
  default   = "s3cr3t"
  sensitive = true
}

resource "terraform_data" "s" {
  input = { password = var.secret, user = "admin" }
}

output "user" {
  value = terraform_data.s.output.user
}

output "whole" {
  value     = terraform_data.s.output
  sensitive = true
}
