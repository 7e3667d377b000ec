resource "terraform_data" "a" {
  input = "hello"
}

resource "terraform_data" "b" {
  input = { from = terraform_data.a.output, n = 1 }
}

output "b" {
  value = terraform_data.b.output
}
