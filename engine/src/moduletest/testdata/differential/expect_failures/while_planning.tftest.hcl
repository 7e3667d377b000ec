run "unlucky_apply" {
  variables {
    size = 13
  }

  expect_failures = [output.size]
}
