run "filtered_out" {
  assert {
    condition     = var.a == "never"
    error_message = "-filter should have left this file out"
  }
}
