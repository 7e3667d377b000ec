mock_provider "sim" {
  mock_resource "sim_network" {
    defaults = {
      arn = "arn:sim:network/mocked"
    }
  }

  mock_data "sim_regions" {
    defaults = {
      names = ["mock-1", "mock-2"]
    }
  }

  override_resource {
    target = sim_subnet.a
    values = {
      availability_zone = "mock-1a"
    }
  }
}

run "mocked" {
  assert {
    condition     = output.network_arn == "arn:sim:network/mocked"
    error_message = "the network's arn is not the mock default"
  }

  assert {
    condition     = sim_subnet.a.network_id == sim_network.main.id
    error_message = "the subnet is not in the network"
  }

  assert {
    condition     = sim_subnet.a.availability_zone == "mock-1a"
    error_message = "the subnet's zone is not overridden"
  }

  assert {
    condition     = data.sim_regions.all.names[1] == "mock-2"
    error_message = "the regions are not the mock's"
  }

  assert {
    condition     = length(sim_network.main.id) > 3
    error_message = "no id was generated"
  }
}

run "failing_on_a_mock" {
  command = plan

  assert {
    condition     = output.network_arn == "arn:sim:network/real"
    error_message = "the arn is ${output.network_arn}"
  }
}
