override_data {
  target = data.terraform_remote_state.network
  values = {
    outputs = {
      subnet = "10.0.1.0/24"
    }
  }
}

run "reads_the_override" {
  assert {
    condition     = output.subnet == "10.0.1.0/24"
    error_message = "subnet is ${output.subnet}"
  }
}
