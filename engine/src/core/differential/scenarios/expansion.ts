// count and for_each: growth, shrinking, re-keying, switching between them, implied moves
// between no key and [0], splats and references to instances.
import { main, type Scenario } from "../scenario.js";

const countN = (n: number | string, extra = "") => `resource "terraform_data" "r" {\n  count = ${n}\n  input = "r-\${count.index}"${extra}\n}\noutput "ids" {\n  value = terraform_data.r[*].output\n}\n`;
const forEach = (keys: string) => `resource "terraform_data" "r" {\n  for_each = toset(${keys})\n  input    = "v-\${each.key}"\n}\noutput "outs" {\n  value = { for k, r in terraform_data.r : k => r.output }\n}\n`;

const unknownKeys = `resource "terraform_data" "a" {\n  input = "k"\n}\nresource "terraform_data" "b" {\n  for_each = toset([terraform_data.a.output])\n  input    = each.key\n}\n`;
const unknownCount = `resource "terraform_data" "a" {\n  input = 2\n}\nresource "terraform_data" "b" {\n  count = terraform_data.a.output\n}\n`;

export const EXPANSION: Scenario[] = [
  {
    name: "count-grow-shrink",
    about: "count from 2 to 4 to 1: new indexes created, trailing indexes deleted (DeleteBecauseCountIndex)",
    steps: [main(countN(2)), main(countN(4)), main(countN(1))],
  },
  {
    name: "count-zero",
    about: "count 0 creates nothing; from 3 to 0 deletes all; back to 1",
    steps: [main(countN(0)), main(countN(3)), main(countN(0)), main(countN(1))],
  },
  {
    name: "count-from-variable",
    about: "count from a variable set with -var",
    steps: [
      main(`variable "n" {\n  type    = number\n  default = 1\n}\n${countN("var.n")}`, { vars: { n: "3" } }),
      main(`variable "n" {\n  type    = number\n  default = 1\n}\n${countN("var.n")}`),
    ],
  },
  {
    name: "count-to-single",
    about: "count removed from a resource with one instance: [0] becomes the no-key instance (implied move)",
    steps: [
      main(`resource "terraform_data" "r" {\n  count = 1\n  input = "same"\n}\n`),
      main(`resource "terraform_data" "r" {\n  input = "same"\n}\n`),
    ],
  },
  {
    name: "single-to-count",
    about: "count added to a resource: the no-key instance becomes [0] (implied move); [1] is created",
    steps: [
      main(`resource "terraform_data" "r" {\n  input = "same"\n}\n`),
      main(`resource "terraform_data" "r" {\n  count = 2\n  input = "same"\n}\n`),
    ],
  },
  {
    name: "count-to-single-many",
    about: "count removed from a resource with several instances: [0] moves, [1] is deleted",
    steps: [
      main(`resource "terraform_data" "r" {\n  count = 2\n  input = "same"\n}\n`),
      main(`resource "terraform_data" "r" {\n  input = "same"\n}\n`),
    ],
  },
  {
    name: "foreach-grow-shrink",
    about: "for_each keys added and removed (DeleteBecauseEachKey)",
    steps: [main(forEach(`["a", "b"]`)), main(forEach(`["a", "b", "c"]`)), main(forEach(`["c"]`))],
  },
  {
    name: "foreach-rekey",
    about: "for_each keys renamed: old keys deleted, new keys created",
    steps: [main(forEach(`["a", "b"]`)), main(forEach(`["x", "y"]`))],
  },
  {
    name: "foreach-map-objects",
    about: "for_each over a map of objects; an object's attribute changes (update) and a key goes",
    steps: [
      main(`locals {\n  m = {\n    one = { size = 1 }\n    two = { size = 2 }\n  }\n}\nresource "terraform_data" "r" {\n  for_each = local.m\n  input    = { key = each.key, size = each.value.size }\n}\n`),
      main(`locals {\n  m = {\n    one = { size = 10 }\n  }\n}\nresource "terraform_data" "r" {\n  for_each = local.m\n  input    = { key = each.key, size = each.value.size }\n}\n`),
    ],
  },
  {
    name: "foreach-empty",
    about: "for_each over an empty map, then filled, then emptied",
    steps: [main(forEach(`[]`)), main(forEach(`["k"]`)), main(forEach(`[]`))],
  },
  {
    name: "count-to-foreach",
    about: "count switched to for_each without moved blocks: count instances deleted (DeleteBecauseWrongRepetition), keys created",
    steps: [main(countN(2)), main(forEach(`["0", "1"]`))],
  },
  {
    name: "foreach-to-count",
    about: "for_each switched to count without moved blocks",
    steps: [main(forEach(`["a"]`)), main(countN(1))],
  },
  {
    name: "foreach-to-single",
    about: "for_each removed: the keyed instances are deleted (wrong repetition) and a no-key instance created",
    steps: [main(forEach(`["a"]`)), main(`resource "terraform_data" "r" {\n  input = "v-a"\n}\n`)],
  },
  {
    name: "count-references",
    about: "references to count instances: index, splat, length, element; dependents follow the count",
    steps: [
      main(`${countN(2)}resource "terraform_data" "sum" {\n  input = { n = length(terraform_data.r), first = terraform_data.r[0].output, all = terraform_data.r[*].input }\n}\n`),
      main(`${countN(3)}resource "terraform_data" "sum" {\n  input = { n = length(terraform_data.r), first = terraform_data.r[0].output, all = terraform_data.r[*].input }\n}\n`),
    ],
  },
  {
    name: "foreach-chained",
    about: "for_each over another for_each resource (each.value is the instance object)",
    steps: [
      main(`resource "terraform_data" "a" {\n  for_each = toset(["x", "y"])\n  input    = each.key\n}\nresource "terraform_data" "b" {\n  for_each = terraform_data.a\n  input    = "\${each.key}:\${each.value.output}"\n}\n`),
      main(`resource "terraform_data" "a" {\n  for_each = toset(["x", "z"])\n  input    = each.key\n}\nresource "terraform_data" "b" {\n  for_each = terraform_data.a\n  input    = "\${each.key}:\${each.value.output}"\n}\n`),
    ],
  },
  {
    name: "count-per-index-input",
    about: "count whose inputs come from a list: removing the middle element shifts later indexes (updates)",
    steps: [
      main(`variable "names" {\n  default = ["a", "b", "c"]\n}\nresource "terraform_data" "r" {\n  count = length(var.names)\n  input = var.names[count.index]\n}\n`),
      main(`variable "names" {\n  default = ["a", "c"]\n}\nresource "terraform_data" "r" {\n  count = length(var.names)\n  input = var.names[count.index]\n}\n`),
    ],
  },
  {
    name: "foreach-unknown-keys-error",
    about: "for_each over values only known after apply is an error; -target the dependency first, then the rest plans",
    steps: [
      main(unknownKeys),
      main(unknownKeys, { targets: ["terraform_data.a"] }),
      main(unknownKeys),
    ],
  },
  {
    name: "count-unknown-error",
    about: "count from a value only known after apply is an error; -target the dependency first, then the rest plans",
    steps: [
      main(unknownCount),
      main(unknownCount, { targets: ["terraform_data.a"] }),
      main(unknownCount),
    ],
  },
];
