module "child" {
  source = "./mod"
  v      = "hello"
}
resource "terraform_data" "imp" {
  input = null
}
import {
  to = terraform_data.imp
  id = "11111111-2222-3333-4444-555555555555"
}
resource "terraform_data" "chk" {
  input = "x"
  lifecycle {
    postcondition {
      condition     = self.input == "x"
      error_message = "bad"
    }
  }
}
check "c" {
  assert {
    condition     = terraform_data.chk.input == "x"
    error_message = "nope"
  }
}
data "terraform_remote_state" "rs" {
  backend = "local"
  config = {
    path = terraform_data.chk.output
  }
}
