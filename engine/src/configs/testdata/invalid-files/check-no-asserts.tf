check "empty" {
  data "http" "x" {
    url = "https://example.com"
  }
}
