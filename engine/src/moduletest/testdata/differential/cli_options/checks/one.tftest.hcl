variables {
  c = "file-c"
}

run "globals_under_file_variables" {
  assert {
    condition     = output.joined == "from-cli/from-var-file/file-c"
    error_message = "joined is ${output.joined}"
  }
}

run "run_variables_win" {
  command = plan

  variables {
    a = "run-a"
    c = "run-c"
  }

  assert {
    condition     = output.joined == "run-a/from-var-file/run-c"
    error_message = "joined is ${output.joined}"
  }
}
