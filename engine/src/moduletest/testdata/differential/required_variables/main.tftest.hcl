run "undeclared" {
  command = plan

  variables {
    req        = "x"
    undeclared = 1
  }

  assert {
    condition     = output.o == "x"
    error_message = "o is ${output.o}"
  }
}

run "missing" {
  command = plan
}

run "after" {
  command = plan

  variables {
    req = "y"
  }
}
