variable "1bad" {}
variable "source" {}
variable "count" {}
