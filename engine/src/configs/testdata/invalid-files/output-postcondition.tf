output "a" {
  value = 1
  postcondition {
    condition     = self.x
    error_message = "x"
  }
}
