terraform {
  required_providers {
    sim = {
      source = "terrace/sim"
    }
  }
}

provider "sim" {
  alias    = "real"
  region   = "eu-west-1"
  data_dir = "sim-data"
}

provider "sim" {
  alias    = "mocked"
  region   = "eu-west-1"
  data_dir = "sim-data"
}

resource "sim_bucket" "real" {
  provider = sim.real
  name     = "real-bucket"
}

resource "sim_bucket" "mocked" {
  provider = sim.mocked
  name     = "mocked-bucket"
}

resource "sim_bucket" "overridden" {
  provider = sim.real
  name     = "overridden-bucket"
}
