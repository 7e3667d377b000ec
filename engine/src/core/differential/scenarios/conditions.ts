// Preconditions, postconditions, check blocks, variable validation and output preconditions.
import { main, withModule, type Scenario } from "../scenario.js";

const pre = `variable "x" {\n  default = "ok"\n}\nresource "terraform_data" "a" {\n  input = var.x\n  lifecycle {\n    precondition {\n      condition     = var.x != "bad"\n      error_message = "x must not be bad."\n    }\n  }\n}\n`;
const post = `variable "x" {\n  default = "ok"\n}\nresource "terraform_data" "a" {\n  input = var.x\n  lifecycle {\n    postcondition {\n      condition     = self.output != "bad"\n      error_message = "output must not be bad."\n    }\n  }\n}\nresource "terraform_data" "after" {\n  input = terraform_data.a.output\n}\n`;
const check = (expected: string) =>
  `resource "terraform_data" "a" {\n  input = "value"\n}\ncheck "health" {\n  assert {\n    condition     = terraform_data.a.output == "${expected}"\n    error_message = "output is not ${expected}."\n  }\n}\n`;

export const CONDITIONS: Scenario[] = [
  {
    name: "precondition-pass-fail",
    about: "a resource precondition passes, then fails (plan error, nothing applied), then passes again",
    steps: [main(pre), main(pre, { vars: { x: "bad" } }), main(pre, { vars: { x: "fine" } })],
  },
  {
    name: "postcondition-apply-time",
    about: "a postcondition on an attribute unknown at plan fails during apply: the object is kept, dependents are not applied",
    steps: [main(post), main(post, { vars: { x: "bad" } })],
  },
  {
    name: "postcondition-plan-time",
    about: "a postcondition on known values fails at plan; fixed, the resource is created",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "x"\n  lifecycle {\n    postcondition {\n      condition     = self.input == "y"\n      error_message = "input must be y."\n    }\n  }\n}\n`), main(`resource "terraform_data" "a" {\n  input = "y"\n  lifecycle {\n    postcondition {\n      condition     = self.input == "y"\n      error_message = "input must be y."\n    }\n  }\n}\n`)],
  },
  {
    name: "postcondition-after-failure",
    about: "after an apply-time postcondition failure the next plan with a fixed value converges",
    steps: [main(post, { vars: { x: "bad" } }), main(post)],
  },
  {
    name: "check-block-pass-fail",
    about: "check block assertions: a failing assertion is a warning, not an error",
    steps: [main(check("value")), main(check("other")), main(check("value"))],
  },
  {
    name: "check-block-unknown",
    about: "a check block over a value unknown during plan, then known and failing at plan",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "v"\n}\ncheck "c" {\n  assert {\n    condition     = terraform_data.a.output == "w"\n    error_message = "not w."\n  }\n}\n`), main(`resource "terraform_data" "a" {\n  input = "v"\n}\ncheck "c" {\n  assert {\n    condition     = terraform_data.a.output == "w"\n    error_message = "not w."\n  }\n}\n`)],
  },
  {
    name: "variable-validation",
    about: "root variable validation: a -var value failing the rule is an error",
    steps: [
      main(`variable "name" {\n  type    = string\n  default = "abc"\n  validation {\n    condition     = length(var.name) >= 3\n    error_message = "name must have 3 characters."\n  }\n}\nresource "terraform_data" "a" {\n  input = var.name\n}\n`),
      main(`variable "name" {\n  type    = string\n  default = "abc"\n  validation {\n    condition     = length(var.name) >= 3\n    error_message = "name must have 3 characters."\n  }\n}\nresource "terraform_data" "a" {\n  input = var.name\n}\n`, { vars: { name: "ab" } }),
    ],
  },
  {
    name: "module-variable-validation",
    about: "validation of a module variable",
    steps: [
      withModule(`module "m" {\n  source = "./mod"\n  size   = 2\n}\n`, `variable "size" {\n  type = number\n  validation {\n    condition     = var.size < 5\n    error_message = "size must be below 5."\n  }\n}\nresource "terraform_data" "r" {\n  input = var.size\n}\n`),
      withModule(`module "m" {\n  source = "./mod"\n  size   = 9\n}\n`, `variable "size" {\n  type = number\n  validation {\n    condition     = var.size < 5\n    error_message = "size must be below 5."\n  }\n}\nresource "terraform_data" "r" {\n  input = var.size\n}\n`),
    ],
  },
  {
    name: "output-precondition",
    about: "a root output precondition failing is a plan error",
    steps: [
      main(`variable "x" {\n  default = 1\n}\nresource "terraform_data" "a" {\n  input = var.x\n}\noutput "o" {\n  value = terraform_data.a.input\n  precondition {\n    condition     = var.x < 3\n    error_message = "x too big."\n  }\n}\n`),
      main(`variable "x" {\n  default = 1\n}\nresource "terraform_data" "a" {\n  input = var.x\n}\noutput "o" {\n  value = terraform_data.a.input\n  precondition {\n    condition     = var.x < 3\n    error_message = "x too big."\n  }\n}\n`, { vars: { x: "5" } }),
    ],
  },
  {
    name: "precondition-count",
    about: "preconditions evaluated per count instance with count.index",
    steps: [
      main(`variable "n" {\n  default = 2\n}\nresource "terraform_data" "r" {\n  count = var.n\n  input = count.index\n  lifecycle {\n    precondition {\n      condition     = count.index < 3\n      error_message = "at most three."\n    }\n  }\n}\n`),
      main(`variable "n" {\n  default = 2\n}\nresource "terraform_data" "r" {\n  count = var.n\n  input = count.index\n  lifecycle {\n    precondition {\n      condition     = count.index < 3\n      error_message = "at most three."\n    }\n  }\n}\n`, { vars: { n: "4" } }),
    ],
  },
];
