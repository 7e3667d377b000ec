resource "terraform_data" "first" {
  input = "1"
}
