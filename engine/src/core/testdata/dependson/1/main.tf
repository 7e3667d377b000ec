resource "terraform_data" "first" {
  input = "1"
}

resource "terraform_data" "second" {
  input      = "2"
  depends_on = [terraform_data.first]
}

resource "terraform_data" "third" {
  input = terraform_data.second.output
}
