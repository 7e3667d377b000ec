variable "name" {
  type = string
}

resource "terraform_data" "thing" {
  input = var.name
}

output "id" {
  value = terraform_data.thing.id
}

output "name" {
  value = var.name
}
