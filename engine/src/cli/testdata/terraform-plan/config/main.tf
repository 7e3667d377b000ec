terraform {
  required_version = ">= 1.5"
}
variable "n" {
  type    = number
  default = 2
}
variable "tags" {
  type    = map(string)
  default = { a = "1" }
}
locals {
  names = [for i in range(var.n) : "n${i}"]
}
resource "terraform_data" "counted" {
  count = var.n
  input = "${local.names[count.index]}-x"
}
resource "terraform_data" "lit" {
  input            = { list = [1, 2, "x"], m = { k = true }, n = null }
  triggers_replace = [terraform_data.counted[0].id, terraform_data.counted[*].id]
  depends_on       = [terraform_data.counted]
  lifecycle {
    create_before_destroy = true
  }
  provisioner "local-exec" {
    command = "echo ${self.id}"
    environment = {
      A = "b"
    }
  }
}
resource "terraform_data" "empty" {}
module "child" {
  source   = "./mod"
  for_each = var.tags
  v        = each.value
  w        = terraform_data.lit.output.list[2]
}
output "child" {
  value = module.child["a"].out
}
output "plain" {
  value       = 42
  description = "a number"
}
