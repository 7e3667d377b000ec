variable "version_tag" {
  default = "v2"
}

resource "terraform_data" "plain" {
  input            = "p"
  triggers_replace = var.version_tag
}

resource "terraform_data" "cbd" {
  input            = "c"
  triggers_replace = [var.version_tag]
  lifecycle {
    create_before_destroy = true
  }
}

resource "terraform_data" "user" {
  input = terraform_data.cbd.id
}
