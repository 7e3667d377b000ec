run "setup" {
  module {
    source = "./setup"
  }
}

run "main" {
  variables {
    prefix = run.setup.prefix
  }

  assert {
    condition     = output.name == "pre-main"
    error_message = "name is ${output.name}"
  }
}

run "wrong" {
  command = plan

  variables {
    prefix = "other"
  }

  assert {
    condition     = output.name == "pre-main"
    error_message = "name is ${output.name}"
  }
}
