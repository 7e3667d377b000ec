variable "a" {
  type     = string
  nullable = false
  default  = null
}
