override_resource {
  target = terraform_data.fake
  values = {
    output = "from the file"
  }
}

run "run_and_file_overrides" {
  override_resource {
    target = module.child.terraform_data.inner
    values = {
      output = "inner override"
    }
  }

  assert {
    condition     = output.fake == "from the file" && output.child == "inner override"
    error_message = "fake is ${output.fake}, child is ${output.child}"
  }

  assert {
    condition     = output.real == "real"
    error_message = "real is ${output.real}"
  }
}

run "without_the_run_override" {
  command = plan

  assert {
    condition     = output.child == "inner override"
    error_message = "the stored object keeps the override's value: ${output.child}"
  }
}
