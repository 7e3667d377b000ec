run "unexpected_check" {
  command = plan

  variables {
    size = 50
  }
}
