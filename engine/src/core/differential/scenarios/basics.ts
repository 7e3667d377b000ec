// Creating, updating and deleting single resources; input and output; outputs, locals,
// variables, functions, null and unknown values.
import { main, type Scenario } from "../scenario.js";

export const BASICS: Scenario[] = [
  {
    name: "basic-lifecycle",
    about: "create, update in place, add a second resource, delete the first",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "one"\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = "two"\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = "two"\n}\nresource "terraform_data" "b" {\n  input = "b"\n}\n`),
      main(`resource "terraform_data" "b" {\n  input = "b"\n}\n`),
    ],
  },
  {
    name: "basic-noop",
    about: "an unchanged configuration plans no-op and keeps the state",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = { x = 1, y = [true, false] }\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = { x = 1, y = [true, false] }\n}\n`),
    ],
  },
  {
    name: "basic-input-types",
    about: "input of every kind of value: string, number, bool, list, map, nested objects, null",
    steps: [
      main(
        `resource "terraform_data" "s" {\n  input = "text"\n}\nresource "terraform_data" "n" {\n  input = 1.5\n}\nresource "terraform_data" "b" {\n  input = true\n}\n` +
          `resource "terraform_data" "l" {\n  input = ["a", "b"]\n}\nresource "terraform_data" "m" {\n  input = { k = "v", n = 2 }\n}\nresource "terraform_data" "o" {\n  input = { list = [1, 2], nested = { deep = [{ a = null }] } }\n}\nresource "terraform_data" "z" {\n  input = null\n}\n`,
      ),
      main(
        `resource "terraform_data" "s" {\n  input = 42\n}\nresource "terraform_data" "n" {\n  input = "1.5"\n}\nresource "terraform_data" "b" {\n  input = true\n}\n` +
          `resource "terraform_data" "l" {\n  input = ["a", "b", "c"]\n}\nresource "terraform_data" "m" {\n  input = { k = "v", n = 3 }\n}\nresource "terraform_data" "o" {\n  input = { list = [1, 2], nested = { deep = [{ a = null }] } }\n}\nresource "terraform_data" "z" {\n  input = "now set"\n}\n`,
      ),
    ],
  },
  {
    name: "basic-input-type-change",
    about: "the input's type changes (string to number to list) while its text stays alike",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "1"\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = 1\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = ["1"]\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = toset(["1"])\n}\n`),
    ],
  },
  {
    name: "basic-input-removed",
    about: "input set, then the argument removed (null), then set again",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "x"\n}\n`),
      main(`resource "terraform_data" "a" {\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = "x"\n}\n`),
    ],
  },
  {
    name: "basic-unknown-chain",
    about: "input from another resource's output: unknown during plan, known after apply; update propagates",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "first"\n}\nresource "terraform_data" "b" {\n  input = terraform_data.a.output\n}\nresource "terraform_data" "c" {\n  input = "\${terraform_data.b.output}-c"\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = "second"\n}\nresource "terraform_data" "b" {\n  input = terraform_data.a.output\n}\nresource "terraform_data" "c" {\n  input = "\${terraform_data.b.output}-c"\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = "second"\n}\nresource "terraform_data" "b" {\n  input = terraform_data.a.output\n}\nresource "terraform_data" "c" {\n  input = "\${terraform_data.b.output}-c"\n}\n`),
    ],
  },
  {
    name: "basic-id-reference",
    about: "input from another resource's id; the id stays across updates, changes on replacement",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "v1"\n}\nresource "terraform_data" "b" {\n  input = terraform_data.a.id\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = "v2"\n}\nresource "terraform_data" "b" {\n  input = terraform_data.a.id\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = "v2"\n  triggers_replace = ["r"]\n}\nresource "terraform_data" "b" {\n  input = terraform_data.a.id\n}\n`),
    ],
  },
  {
    name: "basic-outputs",
    about: "root outputs: created, changed, depending on a resource, removed",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "x"\n}\noutput "static" {\n  value = "s"\n}\noutput "from_resource" {\n  value = terraform_data.a.output\n}\noutput "whole" {\n  value = terraform_data.a.input\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = "y"\n}\noutput "static" {\n  value = "s2"\n}\noutput "from_resource" {\n  value = terraform_data.a.output\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = "y"\n}\noutput "static" {\n  value = "s2"\n}\n`),
    ],
  },
  {
    name: "basic-output-objects",
    about: "outputs holding objects, lists, null, and a whole resource object",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = { a = 1 }\n}\noutput "obj" {\n  value = { a = terraform_data.a.output, b = [1, "two"] }\n}\noutput "nothing" {\n  value = null\n}\noutput "res" {\n  value = terraform_data.a\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = { a = 2 }\n}\noutput "obj" {\n  value = { a = terraform_data.a.output, b = [1, "two"] }\n}\noutput "nothing" {\n  value = null\n}\noutput "res" {\n  value = terraform_data.a\n}\n`),
    ],
  },
  {
    name: "basic-locals-functions",
    about: "locals and built-in functions feeding inputs (format, join, merge, lookup, jsonencode, cidrsubnet, upper)",
    steps: [
      main(
        `locals {\n  names = ["b", "a", "c"]\n  base  = { env = "dev", size = 2 }\n}\nresource "terraform_data" "a" {\n  input = {\n    joined = join(",", sort(local.names))\n    fmt    = format("%s-%03d", upper(local.base.env), local.base.size)\n    merged = merge(local.base, { extra = true })\n    json   = jsonencode(local.base)\n    cidr   = cidrsubnet("10.0.0.0/16", 8, 3)\n    look   = lookup(local.base, "missing", "default")\n  }\n}\noutput "len" {\n  value = length(local.names)\n}\n`,
      ),
      main(
        `locals {\n  names = ["b", "a", "c", "d"]\n  base  = { env = "prod", size = 2 }\n}\nresource "terraform_data" "a" {\n  input = {\n    joined = join(",", sort(local.names))\n    fmt    = format("%s-%03d", upper(local.base.env), local.base.size)\n    merged = merge(local.base, { extra = true })\n    json   = jsonencode(local.base)\n    cidr   = cidrsubnet("10.0.0.0/16", 8, 3)\n    look   = lookup(local.base, "missing", "default")\n  }\n}\noutput "len" {\n  value = length(local.names)\n}\n`,
      ),
    ],
  },
  {
    name: "basic-variables",
    about: "root variables: defaults, -var values, types, changing a -var value",
    steps: [
      main(`variable "name" {\n  type    = string\n  default = "dflt"\n}\nvariable "n" {\n  type    = number\n  default = 1\n}\nvariable "tags" {\n  type    = map(string)\n  default = {}\n}\nresource "terraform_data" "a" {\n  input = { name = var.name, n = var.n, tags = var.tags }\n}\n`),
      main(`variable "name" {\n  type    = string\n  default = "dflt"\n}\nvariable "n" {\n  type    = number\n  default = 1\n}\nvariable "tags" {\n  type    = map(string)\n  default = {}\n}\nresource "terraform_data" "a" {\n  input = { name = var.name, n = var.n, tags = var.tags }\n}\n`, {
        vars: { name: "given", n: "7", tags: '{a="b"}' },
      }),
      main(`variable "name" {\n  type    = string\n  default = "dflt"\n}\nvariable "n" {\n  type    = number\n  default = 1\n}\nvariable "tags" {\n  type    = map(string)\n  default = {}\n}\nresource "terraform_data" "a" {\n  input = { name = var.name, n = var.n, tags = var.tags }\n}\n`),
    ],
  },
  {
    name: "basic-variable-object-defaults",
    about: "object type constraints with optional attributes and defaults",
    steps: [
      main(`variable "cfg" {\n  type = object({\n    name = string\n    size = optional(number, 3)\n    tags = optional(list(string))\n  })\n  default = { name = "x" }\n}\nresource "terraform_data" "a" {\n  input = var.cfg\n}\n`),
      main(`variable "cfg" {\n  type = object({\n    name = string\n    size = optional(number, 3)\n    tags = optional(list(string))\n  })\n  default = { name = "x" }\n}\nresource "terraform_data" "a" {\n  input = var.cfg\n}\n`, { vars: { cfg: '{name="y", tags=["t"]}' } }),
    ],
  },
  {
    name: "basic-null-unknown",
    about: "conditional null, values unknown until apply inside collections, try() and coalesce()",
    steps: [
      main(`variable "on" {\n  default = false\n}\nresource "terraform_data" "a" {\n  input = var.on ? "yes" : null\n}\nresource "terraform_data" "b" {\n  input = [terraform_data.a.output, "k"]\n}\nresource "terraform_data" "c" {\n  input = coalesce(terraform_data.a.output, "fallback")\n}\noutput "b" {\n  value = terraform_data.b.output\n}\n`),
      main(`variable "on" {\n  default = false\n}\nresource "terraform_data" "a" {\n  input = var.on ? "yes" : null\n}\nresource "terraform_data" "b" {\n  input = [terraform_data.a.output, "k"]\n}\nresource "terraform_data" "c" {\n  input = coalesce(terraform_data.a.output, "fallback")\n}\noutput "b" {\n  value = terraform_data.b.output\n}\n`, { vars: { on: "true" } }),
    ],
  },
  {
    name: "basic-multiple-files",
    about: "a configuration split over several files; a file removed deletes its resources",
    steps: [
      { files: { "main.tf": `resource "terraform_data" "a" {\n  input = "a"\n}\n`, "extra.tf": `resource "terraform_data" "b" {\n  input = terraform_data.a.output\n}\noutput "b" {\n  value = terraform_data.b.output\n}\n` } },
      { files: { "main.tf": `resource "terraform_data" "a" {\n  input = "a"\n}\n` } },
    ],
  },
  {
    name: "basic-empty-config",
    about: "everything removed from the configuration: every resource and output is deleted",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "a"\n}\nresource "terraform_data" "b" {\n  input = terraform_data.a.output\n}\noutput "o" {\n  value = terraform_data.b.output\n}\n`),
      main(`# nothing\n`),
    ],
  },
  {
    name: "basic-self-referencing-string",
    about: "templates, heredocs and for expressions building inputs",
    steps: [
      main(`locals {\n  items = { a = 1, b = 2 }\n}\nresource "terraform_data" "a" {\n  input = {\n    doc  = <<-EOT\n      hello %{ for k, v in local.items }\${k}=\${v} %{ endfor }\n    EOT\n    list = [for k, v in local.items : "\${k}\${v}" if v > 1]\n    map  = { for k, v in local.items : upper(k) => v * 10 }\n  }\n}\n`),
      main(`locals {\n  items = { a = 1, b = 2, c = 3 }\n}\nresource "terraform_data" "a" {\n  input = {\n    doc  = <<-EOT\n      hello %{ for k, v in local.items }\${k}=\${v} %{ endfor }\n    EOT\n    list = [for k, v in local.items : "\${k}\${v}" if v > 1]\n    map  = { for k, v in local.items : upper(k) => v * 10 }\n  }\n}\n`),
    ],
  },
];
