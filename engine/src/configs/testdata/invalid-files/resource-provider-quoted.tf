resource "test_object" "a" {
  provider = "test.foo"
}
resource "test_object" "b" {
  provider = test.foo.bar.baz
}
