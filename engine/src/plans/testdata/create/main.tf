variable "name" {
  type    = string
  default = "world"
}
variable "secret" {
  type      = string
  default   = "hunter2"
  sensitive = true
}
resource "terraform_data" "a" {
  input = {
    name = var.name
    list = [1, 2, 3]
    nested = { x = "y", n = null }
  }
}
resource "terraform_data" "b" {
  count = 2
  input = "b-${count.index}"
  triggers_replace = [terraform_data.a.id]
}
resource "terraform_data" "s" {
  input = var.secret
}
resource "terraform_data" "m" {
  for_each = toset(["x", "y"])
  input = each.key
}
output "a_out" {
  value = terraform_data.a.output
}
output "static" {
  value = "hello"
}
output "sec" {
  value = var.secret
  sensitive = true
}
