variable "label" {
  type    = string
  default = "one"
}

resource "terraform_data" "a" {
  input = var.label
}

resource "terraform_data" "b" {
  input = "${var.label}-b"
}

output "a_id" {
  value = terraform_data.a.id
}

output "a" {
  value = terraform_data.a.output
}

output "b" {
  value = terraform_data.b.output
}
