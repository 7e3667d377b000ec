variable "a" {
  type = "string"
}
variable "b" {
  type = "list"
}
variable "c" {
  type = "banana"
}
