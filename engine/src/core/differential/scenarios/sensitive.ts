// Sensitive values: variables, outputs, nonsensitive(), marks in state.
import { main, type Scenario } from "../scenario.js";

export const SENSITIVE: Scenario[] = [
  {
    name: "sensitive-variable-input",
    about: "a sensitive variable flows into input and output (sensitive_attributes in state)",
    steps: [
      main(`variable "secret" {\n  default   = "s1"\n  sensitive = true\n}\nresource "terraform_data" "a" {\n  input = var.secret\n}\noutput "o" {\n  value     = terraform_data.a.output\n  sensitive = true\n}\n`),
      main(`variable "secret" {\n  default   = "s1"\n  sensitive = true\n}\nresource "terraform_data" "a" {\n  input = var.secret\n}\noutput "o" {\n  value     = terraform_data.a.output\n  sensitive = true\n}\n`, { vars: { secret: "s2" } }),
    ],
  },
  {
    name: "sensitive-nested",
    about: "a sensitive value nested inside an object input",
    steps: [
      main(`variable "pw" {\n  default   = "p"\n  sensitive = true\n}\nresource "terraform_data" "a" {\n  input = { user = "u", pw = var.pw, list = ["x", var.pw] }\n}\n`),
      main(`variable "pw" {\n  default   = "p"\n  sensitive = true\n}\nresource "terraform_data" "a" {\n  input = { user = "u2", pw = var.pw, list = ["x", var.pw] }\n}\n`),
    ],
  },
  {
    name: "sensitive-output-required",
    about: "a root output of a sensitive value without sensitive = true is an error; with it, fine",
    steps: [main(`variable "s" {\n  default   = "x"\n  sensitive = true\n}\noutput "o" {\n  value = var.s\n}\n`), main(`variable "s" {\n  default   = "x"\n  sensitive = true\n}\noutput "o" {\n  value     = var.s\n  sensitive = true\n}\n`)],
  },
  {
    name: "sensitive-nonsensitive",
    about: "nonsensitive() removes the mark; the output needs no sensitive flag",
    steps: [
      main(`variable "s" {\n  default   = "x"\n  sensitive = true\n}\nresource "terraform_data" "a" {\n  input = nonsensitive(var.s)\n}\noutput "o" {\n  value = nonsensitive(var.s)\n}\n`), main(`variable "s" {\n  default   = "x"\n  sensitive = true\n}\nresource "terraform_data" "a" {\n  input = nonsensitive(var.s)\n}\noutput "o" {\n  value = nonsensitive(var.s)\n}\n`)],
  },
  {
    name: "sensitive-becomes-plain",
    about: "a value stops being sensitive with no change in value: an update that only changes marks",
    steps: [
      main(`variable "s" {\n  default   = "x"\n  sensitive = true\n}\nresource "terraform_data" "a" {\n  input = var.s\n}\n`),
      main(`variable "s" {\n  default   = "x"\n}\nresource "terraform_data" "a" {\n  input = var.s\n}\n`),
    ],
  },
  {
    name: "sensitive-for-each-error",
    about: "a sensitive value in for_each is an error; nonsensitive() lifts it",
    steps: [main(`variable "keys" {\n  default   = ["a"]\n  sensitive = true\n}\nresource "terraform_data" "r" {\n  for_each = toset(var.keys)\n}\n`), main(`variable "keys" {\n  default   = ["a"]\n  sensitive = true\n}\nresource "terraform_data" "r" {\n  for_each = toset(nonsensitive(var.keys))\n}\n`)],
  },
  {
    name: "sensitive-triggers",
    about: "a sensitive triggers_replace value changes: replacement",
    steps: [
      main(`variable "t" {\n  default   = "1"\n  sensitive = true\n}\nresource "terraform_data" "a" {\n  triggers_replace = var.t\n}\n`),
      main(`variable "t" {\n  default   = "1"\n  sensitive = true\n}\nresource "terraform_data" "a" {\n  triggers_replace = var.t\n}\n`, { vars: { t: "2" } }),
    ],
  },
  {
    name: "sensitive-function",
    about: "sensitive() on a local; the mark reaches state and outputs",
    steps: [main(`locals {\n  s = sensitive({ a = "b" })\n}\nresource "terraform_data" "a" {\n  input = local.s\n}\noutput "o" {\n  value     = local.s.a\n  sensitive = true\n}\noutput "plain" {\n  value = "p"\n}\n`), main(`locals {\n  s = sensitive({ a = "c" })\n}\nresource "terraform_data" "a" {\n  input = local.s\n}\noutput "o" {\n  value     = local.s.a\n  sensitive = true\n}\noutput "plain" {\n  value = "p"\n}\n`)],
  },
];
