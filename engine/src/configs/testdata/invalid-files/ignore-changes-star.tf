resource "a" "b" {
  lifecycle {
    ignore_changes = ["*"]
  }
}
