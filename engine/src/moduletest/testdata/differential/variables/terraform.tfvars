from_tfvars = "tfvars"
from_file   = "tfvars too"
