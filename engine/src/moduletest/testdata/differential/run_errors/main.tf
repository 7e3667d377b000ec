variable "n" {
  type    = number
  default = 1
}

resource "terraform_data" "a" {
  input = var.n
}

output "n" {
  value = terraform_data.a.output
}
