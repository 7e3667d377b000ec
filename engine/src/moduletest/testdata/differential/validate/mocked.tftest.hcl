mock_provider "sim" {}

run "invalid_argument_of_a_mocked_provider" {
  command = plan

  module {
    source = "./bad_argument"
  }
}
