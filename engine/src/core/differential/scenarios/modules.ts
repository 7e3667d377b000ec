// Child modules: inputs and outputs, count and for_each on module calls, nesting, removal.
import { withModule, type Scenario } from "../scenario.js";

const leaf = `variable "name" {\n  type = string\n}\nresource "terraform_data" "r" {\n  input = var.name\n}\noutput "out" {\n  value = terraform_data.r.output\n}\n`;

export const MODULES: Scenario[] = [
  {
    name: "module-basic",
    about: "a module call with an input; the input changes; the module output feeds a root resource",
    steps: [
      withModule(`module "m" {\n  source = "./mod"\n  name   = "one"\n}\nresource "terraform_data" "root" {\n  input = module.m.out\n}\noutput "o" {\n  value = module.m.out\n}\n`, leaf),
      withModule(`module "m" {\n  source = "./mod"\n  name   = "two"\n}\nresource "terraform_data" "root" {\n  input = module.m.out\n}\noutput "o" {\n  value = module.m.out\n}\n`, leaf),
    ],
  },
  {
    name: "module-count",
    about: "count on a module call: grow then shrink (DeleteBecauseCountIndex inside modules)",
    steps: [
      withModule(`module "m" {\n  source = "./mod"\n  count  = 2\n  name   = "n\${count.index}"\n}\noutput "names" {\n  value = module.m[*].out\n}\n`, leaf),
      withModule(`module "m" {\n  source = "./mod"\n  count  = 3\n  name   = "n\${count.index}"\n}\noutput "names" {\n  value = module.m[*].out\n}\n`, leaf),
      withModule(`module "m" {\n  source = "./mod"\n  count  = 1\n  name   = "n\${count.index}"\n}\noutput "names" {\n  value = module.m[*].out\n}\n`, leaf),
    ],
  },
  {
    name: "module-foreach",
    about: "for_each on a module call: keys added, changed and removed",
    steps: [
      withModule(`module "m" {\n  source   = "./mod"\n  for_each = { a = "A", b = "B" }\n  name     = each.value\n}\noutput "names" {\n  value = { for k, m in module.m : k => m.out }\n}\n`, leaf),
      withModule(`module "m" {\n  source   = "./mod"\n  for_each = { b = "BB", c = "C" }\n  name     = each.value\n}\noutput "names" {\n  value = { for k, m in module.m : k => m.out }\n}\n`, leaf),
    ],
  },
  {
    name: "module-removed",
    about: "a module call removed: its resources are deleted (DeleteBecauseNoModule)",
    steps: [
      withModule(`module "m" {\n  source = "./mod"\n  name   = "x"\n}\nresource "terraform_data" "keep" {\n  input = "k"\n}\n`, leaf),
      { files: { "main.tf": `resource "terraform_data" "keep" {\n  input = "k"\n}\n` } },
    ],
  },
  {
    name: "module-count-to-zero",
    about: "module count set to zero deletes the instances' resources",
    steps: [
      withModule(`variable "n" {\n  default = 2\n}\nmodule "m" {\n  source = "./mod"\n  count  = var.n\n  name   = "n\${count.index}"\n}\n`, leaf),
      withModule(`variable "n" {\n  default = 2\n}\nmodule "m" {\n  source = "./mod"\n  count  = var.n\n  name   = "n\${count.index}"\n}\n`, leaf, { vars: { n: "0" } }),
    ],
  },
  {
    name: "module-nested",
    about: "a module calling a module; changes two levels down; outputs passed up",
    steps: [
      {
        files: {
          "main.tf": `module "outer" {\n  source = "./outer"\n  name   = "x"\n}\noutput "deep" {\n  value = module.outer.deep\n}\n`,
          "outer/main.tf": `variable "name" {}\nmodule "inner" {\n  source = "../inner"\n  name   = "\${var.name}-inner"\n}\nresource "terraform_data" "o" {\n  input = module.inner.out\n}\noutput "deep" {\n  value = terraform_data.o.output\n}\n`,
          "inner/main.tf": leaf,
        },
      },
      {
        files: {
          "main.tf": `module "outer" {\n  source = "./outer"\n  name   = "y"\n}\noutput "deep" {\n  value = module.outer.deep\n}\n`,
          "outer/main.tf": `variable "name" {}\nmodule "inner" {\n  source = "../inner"\n  name   = "\${var.name}-inner"\n}\nresource "terraform_data" "o" {\n  input = module.inner.out\n}\noutput "deep" {\n  value = terraform_data.o.output\n}\n`,
          "inner/main.tf": leaf,
        },
      },
    ],
  },
  {
    name: "module-nested-expanded",
    about: "for_each on the outer call and count on the inner call",
    steps: [
      {
        files: {
          "main.tf": `module "outer" {\n  source   = "./outer"\n  for_each = toset(["a", "b"])\n  n        = 2\n}\n`,
          "outer/main.tf": `variable "n" {}\nmodule "inner" {\n  source = "../inner"\n  count  = var.n\n  name   = "i\${count.index}"\n}\n`,
          "inner/main.tf": leaf,
        },
      },
      {
        files: {
          "main.tf": `module "outer" {\n  source   = "./outer"\n  for_each = toset(["b"])\n  n        = 1\n}\n`,
          "outer/main.tf": `variable "n" {}\nmodule "inner" {\n  source = "../inner"\n  count  = var.n\n  name   = "i\${count.index}"\n}\n`,
          "inner/main.tf": leaf,
        },
      },
    ],
  },
  {
    name: "module-depends-on",
    about: "depends_on on a module call: module resources wait for a root resource and record it",
    steps: [
      withModule(`resource "terraform_data" "first" {\n  input = "f"\n}\nmodule "m" {\n  source     = "./mod"\n  name       = "x"\n  depends_on = [terraform_data.first]\n}\n`, leaf),
      withModule(`resource "terraform_data" "first" {\n  input = "f2"\n}\nmodule "m" {\n  source     = "./mod"\n  name       = "x"\n  depends_on = [terraform_data.first]\n}\n`, leaf),
    ],
  },
  {
    name: "module-variable-default-validation",
    about: "module variables with defaults and types; a default used then overridden",
    steps: [
      withModule(`module "m" {\n  source = "./mod"\n}\noutput "o" {\n  value = module.m.v\n}\n`, `variable "size" {\n  type    = number\n  default = 3\n}\nresource "terraform_data" "r" {\n  input = var.size * 2\n}\noutput "v" {\n  value = terraform_data.r.output\n}\n`),
      withModule(`module "m" {\n  source = "./mod"\n  size   = "5"\n}\noutput "o" {\n  value = module.m.v\n}\n`, `variable "size" {\n  type    = number\n  default = 3\n}\nresource "terraform_data" "r" {\n  input = var.size * 2\n}\noutput "v" {\n  value = terraform_data.r.output\n}\n`),
    ],
  },
  {
    name: "module-whole-object",
    about: "a whole module object (all its outputs) used as an input; a module output added",
    steps: [
      withModule(`module "m" {\n  source = "./mod"\n  name   = "x"\n}\nresource "terraform_data" "all" {\n  input = module.m\n}\n`, leaf),
      withModule(`module "m" {\n  source = "./mod"\n  name   = "x"\n}\nresource "terraform_data" "all" {\n  input = module.m\n}\n`, `${leaf}output "extra" {\n  value = "e"\n}\n`),
    ],
  },
  {
    name: "module-output-sensitive",
    about: "a sensitive module output used by a root resource and a sensitive root output",
    steps: [
      withModule(`module "m" {\n  source = "./mod"\n}\nresource "terraform_data" "r" {\n  input = module.m.secret\n}\noutput "s" {\n  value     = module.m.secret\n  sensitive = true\n}\n`, `output "secret" {\n  value     = "hunter2"\n  sensitive = true\n}\n`),
      withModule(`module "m" {\n  source = "./mod"\n}\nresource "terraform_data" "r" {\n  input = module.m.secret\n}\noutput "s" {\n  value     = module.m.secret\n  sensitive = true\n}\n`, `output "secret" {\n  value     = "hunter3"\n  sensitive = true\n}\n`),
    ],
  },
  {
    name: "module-resource-count-inside",
    about: "count inside a module driven by a module variable",
    steps: [
      withModule(`module "m" {\n  source = "./mod"\n  n      = 2\n}\noutput "o" {\n  value = module.m.outs\n}\n`, `variable "n" {}\nresource "terraform_data" "r" {\n  count = var.n\n  input = count.index\n}\noutput "outs" {\n  value = terraform_data.r[*].output\n}\n`),
      withModule(`module "m" {\n  source = "./mod"\n  n      = 1\n}\noutput "o" {\n  value = module.m.outs\n}\n`, `variable "n" {}\nresource "terraform_data" "r" {\n  count = var.n\n  input = count.index\n}\noutput "outs" {\n  value = terraform_data.r[*].output\n}\n`),
    ],
  },
];
