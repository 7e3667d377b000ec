run "fine" {
  assert {
    condition     = output.n == 1
    error_message = "n is ${output.n}"
  }
}

run "bad_reference" {
  command = plan

  assert {
    condition     = var.undeclared == 1
    error_message = "never"
  }
}

run "skipped" {
  assert {
    condition     = output.n == 1
    error_message = "n is ${output.n}"
  }
}
