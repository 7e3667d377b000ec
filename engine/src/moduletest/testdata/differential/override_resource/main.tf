resource "terraform_data" "real" {
  input = "real"
}

resource "terraform_data" "fake" {
  input = "fake"
}

module "child" {
  source = "./child"
}

output "real" {
  value = terraform_data.real.output
}

output "fake" {
  value = terraform_data.fake.output
}

output "child" {
  value = module.child.value
}
