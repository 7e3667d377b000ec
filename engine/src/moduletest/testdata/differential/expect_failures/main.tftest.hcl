run "negative" {
  command = plan

  variables {
    size = -1
  }

  expect_failures = [var.size]
}

run "too_big" {
  command = plan

  variables {
    size = 500
  }

  expect_failures = [terraform_data.box, check.small]
}

run "small" {
  variables {
    size = 5
  }
}

run "unlucky_plan" {
  command = plan

  variables {
    size = 13
  }

  expect_failures = [output.size, check.small]
}

run "medium" {
  variables {
    size = 50
  }

  expect_failures = [check.small]
}
