mock_provider "sim" {
  mock_resource "sim_network" {
    defaults = {
      arn = "arn:sim:network/mocked"
    }
  }
}

run "valid" {
  assert {
    condition     = output.network_arn == "arn:sim:network/mocked"
    error_message = "arn is ${output.network_arn}"
  }
}

run "invalid_reference" {
  command = plan

  module {
    source = "./bad_reference"
  }
}

run "skipped" {
  command = plan
}
