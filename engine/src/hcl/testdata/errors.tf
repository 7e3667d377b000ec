terraform {
  required_version = ">= 1.6"
}

variable "name" {
  type    = string
  default = "web", description = "x"
}

resource "aws_instance" "web" {
  ami           = "ami-123"
  instance_type = var.size ? "t3.micro"
  tags = {
    Name = "web" "x"
  }
}

locals {
  a = 1
  a = 2
  b = [for x in var.list : x => x]
}
