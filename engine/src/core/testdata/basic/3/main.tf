resource "terraform_data" "a" {
  input = "hello again"
}

output "a" {
  value = terraform_data.a.output
}
