variables {
  name = "file"
}

run "planned" {
  command = plan

  assert {
    condition     = terraform_data.greeting.input == "hello file"
    error_message = "the planned input is wrong"
  }

  assert {
    condition     = length(terraform_data.items) == 2
    error_message = "two items are planned"
  }
}

run "applied" {
  variables {
    name = "run"
  }

  assert {
    condition     = output.greeting == "hello run"
    error_message = "the greeting is wrong"
  }

  assert {
    condition     = output.items == ["item-0", "item-1"]
    error_message = "the items are wrong"
  }
}

run "failing" {
  variables {
    count_of = 3
  }

  assert {
    condition     = length(output.items) == 2
    error_message = "expected 2 items, got ${length(output.items)}"
  }

  assert {
    condition     = output.greeting == "hello nobody"
    error_message = "greeting is ${output.greeting}"
  }
}

run "uses_previous" {
  command = plan

  variables {
    name = run.applied.greeting
  }

  assert {
    condition     = var.name == "hello run"
    error_message = "run outputs are not visible"
  }
}
