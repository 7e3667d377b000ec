resource "a" "b" {
  provisioner "local-exec" {
    when = later
  }
}
