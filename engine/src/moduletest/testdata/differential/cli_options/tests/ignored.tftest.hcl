run "other_directory" {
  assert {
    condition     = var.a == "never"
    error_message = "-test-directory should have left this file out"
  }
}
