# Runs before main.tftest.json: files run in name order whatever their syntax.
run "native_first" {
  command = plan

  assert {
    condition     = var.name == "world"
    error_message = "the default name is ${var.name}"
  }
}
