variable "v" { type = string }
resource "terraform_data" "inner" {
  input = var.v
}
output "o" { value = terraform_data.inner.output }
