run "run_override" {
  override_data {
    target = data.terraform_remote_state.network
    values = {
      outputs = {
        subnet = "10.0.2.0/24"
      }
    }
  }

  assert {
    condition     = output.subnet == "10.0.2.0/24"
    error_message = "subnet is ${output.subnet}"
  }
}

run "without_override" {
  command = plan
}
