resource "test_object" "a" {
  for_each = toset(["x"])
  provider = test[each.key]
}
