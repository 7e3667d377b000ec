mock_provider "sim" {
  alias = "mocked"

  mock_resource "sim_bucket" {
    defaults = {
      arn = "arn:mocked"
    }
  }
}

override_resource {
  target = sim_bucket.overridden
  values = {
    arn = "arn:overridden"
  }
}

run "only_the_alias_is_mocked" {
  assert {
    condition     = sim_bucket.mocked.arn == "arn:mocked"
    error_message = "the mocked alias made ${sim_bucket.mocked.arn}"
  }

  assert {
    condition     = sim_bucket.real.arn == "arn:sim:storage:eu-west-1:123456789012:bucket/real-bucket"
    error_message = "the real alias made ${sim_bucket.real.arn}"
  }

  assert {
    condition     = sim_bucket.overridden.arn == "arn:overridden" && sim_bucket.overridden.id != "overridden-bucket"
    error_message = "the overridden bucket is ${sim_bucket.overridden.arn}"
  }
}
