variables {
  from_file = "file"
  test_only = "only in the test"
}

run "file_and_tfvars" {
  command = plan

  assert {
    condition     = terraform_data.all.input == "tfvars/file/"
    error_message = "input is ${terraform_data.all.input}"
  }

  assert {
    condition     = var.test_only == "only in the test"
    error_message = "test_only is ${var.test_only}"
  }
}

run "run_wins" {
  variables {
    from_file = "run"
    from_run  = ["a", "b"]
  }

  assert {
    condition     = output.all == "tfvars/run/a,b"
    error_message = "all is ${output.all}"
  }
}

run "wrong_expectation" {
  command = plan

  variables {
    from_run = ["c"]
  }

  assert {
    condition     = terraform_data.all.input == "tfvars/file/d"
    error_message = "input is ${terraform_data.all.input}"
  }
}
