run "create" {
  assert {
    condition     = output.a == "one" && output.b == "one-b"
    error_message = "a is ${output.a}, b is ${output.b}"
  }
}

run "replace" {
  plan_options {
    replace = [terraform_data.a]
  }

  assert {
    condition     = output.a_id != run.create.a_id
    error_message = "terraform_data.a was not replaced"
  }
}

run "refresh_only" {
  variables {
    label = "two"
  }

  plan_options {
    mode = refresh-only
  }

  assert {
    condition     = output.a == "one" && terraform_data.a.input == "one"
    error_message = "a refresh-only run changed a: ${output.a}"
  }
}

run "target" {
  variables {
    label = "three"
  }

  plan_options {
    target = [terraform_data.a]
  }

  assert {
    condition     = terraform_data.a.output == "three"
    error_message = "a is ${terraform_data.a.output}"
  }

  assert {
    condition     = output.b == "one-b"
    error_message = "b is ${output.b}"
  }
}

run "no_refresh_plan" {
  command = plan

  plan_options {
    refresh = false
  }

  assert {
    condition     = terraform_data.b.input == "one-b"
    error_message = "b's planned input is ${terraform_data.b.input}"
  }
}
