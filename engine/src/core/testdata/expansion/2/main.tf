locals {
  names = toset(["x", "z"])
}

resource "terraform_data" "c" {
  count = 1
  input = "c-${count.index}"
}

resource "terraform_data" "e" {
  for_each = local.names
  input    = "${each.key}-${each.value}"
}

resource "terraform_data" "all" {
  input = [for k, v in terraform_data.e : "${k}=${v.output}"]
}

output "counts" {
  value = terraform_data.c[*].output
}
