variable "enabled" {
  type    = bool
  default = false
}

# Never planned (count = 0), so only validation sees the missing local.
resource "terraform_data" "unused" {
  count = var.enabled ? 1 : 0
  input = local.missing
}

output "ok" {
  value = "yes"
}
