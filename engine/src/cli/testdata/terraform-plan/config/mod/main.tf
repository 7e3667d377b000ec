variable "v" {}
variable "w" {
  default = null
}
resource "terraform_data" "in" {
  input = upper(var.v)
}
output "out" {
  value = terraform_data.in.output
}
