variable "name" {
  type    = string
  default = "world"
}

variable "count_of" {
  type    = number
  default = 2
}

resource "terraform_data" "greeting" {
  input = "hello ${var.name}"
}

resource "terraform_data" "items" {
  count = var.count_of
  input = "item-${count.index}"
}

output "greeting" {
  value = terraform_data.greeting.output
}

output "items" {
  value = terraform_data.items[*].output
}
