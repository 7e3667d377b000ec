data "test" "foo" {
  lifecycle {
    prevent_destroy = true
  }
}
