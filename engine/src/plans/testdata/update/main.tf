resource "terraform_data" "upd" {
  input = {
    a = "one"
    b = "TWO"
    c = "three"
    d = "four"
    l = ["x", "Y", "z", "w"]
    m = { k1 = "v1", k2 = "V2", k4 = "v4" }
  }
}
resource "terraform_data" "rep" {
  input = "r"
  triggers_replace = "t2"
}
resource "terraform_data" "cbd" {
  input = "c"
  triggers_replace = "t2"
  lifecycle {
    create_before_destroy = true
  }
}
moved {
  from = terraform_data.mv
  to   = terraform_data.moved
}
resource "terraform_data" "moved" {
  input = "moving"
}
resource "terraform_data" "same" {
  input = "same"
}
resource "terraform_data" "sens" {
  input = sensitive("new")
}
output "o_upd" { value = "after" }
output "o_same" { value = "same" }
output "o_new" { value = terraform_data.rep.output }
