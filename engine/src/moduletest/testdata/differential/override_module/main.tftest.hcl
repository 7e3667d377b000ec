override_module {
  target = module.child
  outputs = {
    id = "fixed-id"
  }
}

run "file_level" {
  assert {
    condition     = output.id == "fixed-id"
    error_message = "id is ${output.id}"
  }

  assert {
    condition     = output.name == null
    error_message = "an output the override does not give is null"
  }
}
