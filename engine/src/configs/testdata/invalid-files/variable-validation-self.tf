variable "a" {
  validation {
    condition     = var.b != ""
    error_message = "nope"
  }
}
