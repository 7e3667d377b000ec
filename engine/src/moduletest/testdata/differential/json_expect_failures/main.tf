variable "size" {
  type = number

  validation {
    condition     = var.size > 0
    error_message = "size must be positive"
  }
}

resource "terraform_data" "box" {
  input = var.size

  lifecycle {
    precondition {
      condition     = var.size < 100
      error_message = "size too big for the box"
    }
  }
}

output "size" {
  value = terraform_data.box.output

  precondition {
    condition     = var.size != 13
    error_message = "unlucky size"
  }
}

check "small" {
  assert {
    condition     = var.size < 10
    error_message = "size is not small"
  }
}
