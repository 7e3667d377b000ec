run "bad_variable" {
  variables {
    n = "not a number"
  }
}

run "after" {
  command = plan
}
