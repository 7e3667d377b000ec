variable "req" {
  type = string
}

output "o" {
  value = var.req
}
