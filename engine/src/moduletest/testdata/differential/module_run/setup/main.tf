resource "terraform_data" "prefix" {
  input = "pre"
}

output "prefix" {
  value = terraform_data.prefix.output
}
