a = "from-tfvars"
b = "from-tfvars"
