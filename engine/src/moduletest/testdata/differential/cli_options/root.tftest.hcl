run "verbose_plan" {
  command = plan

  assert {
    condition     = sim_bucket.d.name == "from-cli"
    error_message = "input is ${sim_bucket.d.name}"
  }
}
