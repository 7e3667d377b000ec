override_resource {
  target = terraform_data.fake
  values = {
    output = "from the file"
  }
}

run "file_override" {
  assert {
    condition     = output.real == "real"
    error_message = "the real resource was overridden too: ${output.real}"
  }

  assert {
    condition     = output.fake == "from the file"
    error_message = "fake is ${output.fake}"
  }

  assert {
    condition     = output.child == "inner"
    error_message = "child is ${output.child}"
  }
}
