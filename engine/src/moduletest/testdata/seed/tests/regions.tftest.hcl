mock_provider "aws" {
  alias    = "by_region"
  for_each = var.aws_regions

  mock_resource "aws_instance" {
    defaults = {
      id = "i-mocked"
    }
  }
}

run "initial_create" {
  variables {
    aws_regions = {
      a = {}
      b = {}
    }
  }
  assert {
    condition     = length(aws_instance.server) == 2 && output.ids["b"] == "i-mocked"
    error_message = "expected a server in regions a and b"
  }
}

run "disable_b" {
  variables {
    aws_regions = {
      a = {}
      b = { disabled = true }
    }
  }
  assert {
    condition     = keys(aws_instance.server) == ["a"]
    error_message = "the server in region b should be gone while its provider remains"
  }
}

run "remove_b" {
  variables {
    aws_regions = {
      a = {}
    }
  }
  assert {
    condition     = keys(aws_instance.server) == ["a"] && aws_instance.server["a"].ami == "ami-a"
    error_message = "region b should be removed entirely"
  }
}
