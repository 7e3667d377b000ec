data "terraform_remote_state" "network" {
  backend = "local"

  config = {
    path = "network.tfstate"
  }
}

resource "terraform_data" "server" {
  input = data.terraform_remote_state.network.outputs.subnet
}

output "subnet" {
  value = terraform_data.server.output
}
