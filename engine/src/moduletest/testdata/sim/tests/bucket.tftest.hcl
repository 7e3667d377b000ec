# A real (not mocked) provider: the bundled sim plugin, started as a process for every run.
variables {
  bucket = "terrace-test-logs"
}

run "create" {
  assert {
    condition     = sim_bucket.logs.id == "terrace-test-logs" && sim_bucket.logs.versioning == false
    error_message = "bucket not created as configured"
  }
  assert {
    condition     = startswith(output.arn, "arn:")
    error_message = "unexpected arn ${output.arn}"
  }
}

run "enable_versioning" {
  command = plan
  assert {
    condition     = sim_bucket.logs.name == var.bucket
    error_message = "plan against the created bucket should keep its name"
  }
}
