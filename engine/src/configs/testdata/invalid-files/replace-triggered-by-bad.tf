resource "a" "b" {
  lifecycle {
    replace_triggered_by = [var.x, a.c.id]
  }
}
