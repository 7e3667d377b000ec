run "fine_but_expected" {
  command = plan

  variables {
    size = 5
  }

  expect_failures = [output.size]
}

run "skipped" {
  command = plan

  variables {
    size = 5
  }
}
