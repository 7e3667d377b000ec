variable "prefix" {
  type = string
}

resource "terraform_data" "named" {
  input = "${var.prefix}-main"
}

output "name" {
  value = terraform_data.named.output
}
