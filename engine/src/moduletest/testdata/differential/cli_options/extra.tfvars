b = "from-var-file"
