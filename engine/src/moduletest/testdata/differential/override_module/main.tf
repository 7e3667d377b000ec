module "child" {
  source = "./child"
  name   = "x"
}

output "id" {
  value = module.child.id
}

output "name" {
  value = module.child.name
}
