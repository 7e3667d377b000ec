variable "from_tfvars" {
  type = string
}

variable "from_file" {
  type    = string
  default = "default"
}

variable "from_run" {
  type    = list(string)
  default = []
}

resource "terraform_data" "all" {
  input = "${var.from_tfvars}/${var.from_file}/${join(",", var.from_run)}"
}

output "all" {
  value = terraform_data.all.output
}
