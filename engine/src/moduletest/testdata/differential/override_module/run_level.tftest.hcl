run "run_level" {
  override_module {
    target = module.child
    outputs = {
      id   = "run-id"
      name = "run-name"
    }
  }

  assert {
    condition     = output.id == "run-id" && output.name == "run-name"
    error_message = "id is ${output.id}"
  }
}

run "not_overridden" {
  assert {
    condition     = output.name == "x"
    error_message = "name is ${output.name}"
  }

  assert {
    condition     = output.id == "run-id"
    error_message = "the module's resource was created"
  }
}
