resource "terraform_data" "inner" {
  input = "inner"
}

output "value" {
  value = terraform_data.inner.output
}
