// Replacement: triggers_replace, create_before_destroy (and its propagation to dependencies),
// -replace, taint/untaint, replace_triggered_by; depends_on and destroy ordering.
import { main, type Scenario } from "../scenario.js";

const pair = (trigger: string, cbd = false, bExtra = "") =>
  `resource "terraform_data" "a" {\n  input            = "a"\n  triggers_replace = ${trigger}\n${cbd ? "  lifecycle {\n    create_before_destroy = true\n  }\n" : ""}}\nresource "terraform_data" "b" {\n  input = terraform_data.a.id\n${bExtra}}\n`;

export const REPLACE: Scenario[] = [
  {
    name: "triggers-replace",
    about: "triggers_replace changes replace (DeleteThenCreate, ReplaceBecauseCannotUpdate); dependents update",
    steps: [main(pair(`["v1"]`)), main(pair(`["v2"]`)), main(pair(`["v2"]`))],
  },
  {
    name: "triggers-replace-null",
    about: "triggers_replace from null to a value and back to null",
    steps: [main(pair(`null`)), main(pair(`"t"`)), main(pair(`null`))],
  },
  {
    name: "triggers-replace-unknown",
    about: "triggers_replace from another resource's output: unknown at plan forces replacement",
    steps: [
      main(`resource "terraform_data" "src" {\n  input = "1"\n}\nresource "terraform_data" "a" {\n  triggers_replace = terraform_data.src.output\n}\n`),
      main(`resource "terraform_data" "src" {\n  input = "2"\n}\nresource "terraform_data" "a" {\n  triggers_replace = terraform_data.src.output\n}\n`),
    ],
  },
  {
    name: "triggers-replace-input-and-trigger",
    about: "input and triggers_replace change together: a replacement, not an update",
    steps: [
      main(`resource "terraform_data" "a" {\n  input            = "i1"\n  triggers_replace = "t1"\n}\n`),
      main(`resource "terraform_data" "a" {\n  input            = "i2"\n  triggers_replace = "t2"\n}\n`),
    ],
  },
  {
    name: "cbd-replace",
    about: "create_before_destroy: CreateThenDelete, flag recorded in state",
    steps: [main(pair(`["v1"]`, true)), main(pair(`["v2"]`, true))],
  },
  {
    name: "cbd-propagation",
    about: "create_before_destroy on a dependent forces it onto the resource it depends on",
    steps: [
      main(`resource "terraform_data" "a" {\n  triggers_replace = ["v1"]\n}\nresource "terraform_data" "b" {\n  triggers_replace = terraform_data.a.id\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n`),
      main(`resource "terraform_data" "a" {\n  triggers_replace = ["v2"]\n}\nresource "terraform_data" "b" {\n  triggers_replace = terraform_data.a.id\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n`),
    ],
  },
  {
    name: "cbd-added-later",
    about: "create_before_destroy added to an existing resource, then a replacement",
    steps: [main(pair(`["v1"]`)), main(pair(`["v1"]`, true)), main(pair(`["v2"]`, true))],
  },
  {
    name: "cbd-removed-later",
    about: "create_before_destroy removed, then a replacement deletes first",
    steps: [main(pair(`["v1"]`, true)), main(pair(`["v1"]`)), main(pair(`["v2"]`))],
  },
  {
    name: "cbd-count",
    about: "create_before_destroy on count instances replaced together",
    steps: [
      main(`variable "t" {\n  default = "1"\n}\nresource "terraform_data" "r" {\n  count            = 2\n  triggers_replace = var.t\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n`),
      main(`variable "t" {\n  default = "1"\n}\nresource "terraform_data" "r" {\n  count            = 2\n  triggers_replace = var.t\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n`, { vars: { t: "2" } }),
    ],
  },
  {
    name: "replace-option",
    about: "-replace=ADDR replaces an unchanged resource (ReplaceByRequest); dependents update",
    steps: [main(pair(`null`)), main(pair(`null`), { replace: ["terraform_data.a"] })],
  },
  {
    name: "replace-option-cbd",
    about: "-replace on a create_before_destroy resource",
    steps: [main(pair(`null`, true)), main(pair(`null`, true), { replace: ["terraform_data.a"] })],
  },
  {
    name: "replace-option-instance",
    about: "-replace of one count instance and one for_each instance",
    steps: [
      main(`resource "terraform_data" "c" {\n  count = 2\n  input = count.index\n}\nresource "terraform_data" "f" {\n  for_each = toset(["x", "y"])\n  input    = each.key\n}\n`),
      main(`resource "terraform_data" "c" {\n  count = 2\n  input = count.index\n}\nresource "terraform_data" "f" {\n  for_each = toset(["x", "y"])\n  input    = each.key\n}\n`, { replace: ["terraform_data.c[1]", 'terraform_data.f["x"]'] }),
    ],
  },
  {
    name: "replace-option-in-module",
    about: "-replace of a resource inside a module",
    steps: [
      { files: { "main.tf": `module "m" {\n  source = "./mod"\n}\n`, "mod/main.tf": `resource "terraform_data" "r" {\n  input = "x"\n}\n` } },
      { files: { "main.tf": `module "m" {\n  source = "./mod"\n}\n`, "mod/main.tf": `resource "terraform_data" "r" {\n  input = "x"\n}\n` }, replace: ["module.m.terraform_data.r"] },
    ],
  },
  {
    name: "replace-option-with-change",
    about: "-replace on a resource that also has an input change",
    steps: [main(`resource "terraform_data" "a" {\n  input = "1"\n}\n`), main(`resource "terraform_data" "a" {\n  input = "2"\n}\n`, { replace: ["terraform_data.a"] })],
  },
  {
    name: "taint",
    about: "a tainted object is replaced (ReplaceBecauseTainted); state shows the tainted status until then",
    steps: [main(pair(`null`)), { edit: "taint", addr: "terraform_data.a" }, main(pair(`null`))],
  },
  {
    name: "taint-cbd",
    about: "a tainted create_before_destroy object is replaced create-first",
    steps: [main(pair(`null`, true)), { edit: "taint", addr: "terraform_data.a" }, main(pair(`null`, true))],
  },
  {
    name: "untaint",
    about: "taint then untaint: no replacement",
    steps: [main(pair(`null`)), { edit: "taint", addr: "terraform_data.a" }, { edit: "untaint", addr: "terraform_data.a" }, main(pair(`null`))],
  },
  {
    name: "taint-then-removed",
    about: "a tainted object whose configuration is removed is just deleted",
    steps: [main(pair(`null`)), { edit: "taint", addr: "terraform_data.b" }, main(`resource "terraform_data" "a" {\n  input            = "a"\n  triggers_replace = null\n}\n`)],
  },
  {
    name: "taint-count-instance",
    about: "one tainted count instance",
    steps: [
      main(`resource "terraform_data" "r" {\n  count = 2\n  input = count.index\n}\n`),
      { edit: "taint", addr: "terraform_data.r[0]" },
      main(`resource "terraform_data" "r" {\n  count = 2\n  input = count.index\n}\n`),
    ],
  },
  {
    name: "replace-triggered-by-resource",
    about: "replace_triggered_by a whole resource: replaced when that resource changes (ReplaceByTriggers)",
    steps: [
      main(`resource "terraform_data" "src" {\n  input = "1"\n}\nresource "terraform_data" "dst" {\n  input = "d"\n  lifecycle {\n    replace_triggered_by = [terraform_data.src]\n  }\n}\n`),
      main(`resource "terraform_data" "src" {\n  input = "2"\n}\nresource "terraform_data" "dst" {\n  input = "d"\n  lifecycle {\n    replace_triggered_by = [terraform_data.src]\n  }\n}\n`),
      main(`resource "terraform_data" "src" {\n  input = "2"\n}\nresource "terraform_data" "dst" {\n  input = "d"\n  lifecycle {\n    replace_triggered_by = [terraform_data.src]\n  }\n}\n`),
    ],
  },
  {
    name: "replace-triggered-by-attribute",
    about: "replace_triggered_by an attribute: only a change of that attribute triggers",
    steps: [
      main(`resource "terraform_data" "src" {\n  input            = "1"\n  triggers_replace = "t"\n}\nresource "terraform_data" "dst" {\n  lifecycle {\n    replace_triggered_by = [terraform_data.src.input]\n  }\n}\n`),
      main(`resource "terraform_data" "src" {\n  input            = "1"\n  triggers_replace = "t2"\n}\nresource "terraform_data" "dst" {\n  lifecycle {\n    replace_triggered_by = [terraform_data.src.input]\n  }\n}\n`),
      main(`resource "terraform_data" "src" {\n  input            = "2"\n  triggers_replace = "t2"\n}\nresource "terraform_data" "dst" {\n  lifecycle {\n    replace_triggered_by = [terraform_data.src.input]\n  }\n}\n`),
    ],
  },
  {
    name: "replace-triggered-by-count",
    about: "replace_triggered_by with count.index: each instance follows its own source instance",
    steps: [
      main(`variable "v" {\n  type    = list(string)\n  default = ["a", "b"]\n}\nresource "terraform_data" "src" {\n  count = 2\n  input = var.v[count.index]\n}\nresource "terraform_data" "dst" {\n  count = 2\n  lifecycle {\n    replace_triggered_by = [terraform_data.src[count.index]]\n  }\n}\n`),
      main(`variable "v" {\n  type    = list(string)\n  default = ["a", "b"]\n}\nresource "terraform_data" "src" {\n  count = 2\n  input = var.v[count.index]\n}\nresource "terraform_data" "dst" {\n  count = 2\n  lifecycle {\n    replace_triggered_by = [terraform_data.src[count.index]]\n  }\n}\n`, { vars: { v: '["a","c"]' } }),
    ],
  },
  {
    name: "replace-triggered-by-replacement",
    about: "replace_triggered_by a resource that is itself replaced by -replace",
    steps: [
      main(`resource "terraform_data" "src" {\n  input = "1"\n}\nresource "terraform_data" "dst" {\n  lifecycle {\n    replace_triggered_by = [terraform_data.src.id]\n  }\n}\n`),
      main(`resource "terraform_data" "src" {\n  input = "1"\n}\nresource "terraform_data" "dst" {\n  lifecycle {\n    replace_triggered_by = [terraform_data.src.id]\n  }\n}\n`, { replace: ["terraform_data.src"] }),
    ],
  },
  {
    name: "depends-on",
    about: "depends_on orders creation and is recorded as a dependency; removed dependency",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "a"\n}\nresource "terraform_data" "b" {\n  input      = "b"\n  depends_on = [terraform_data.a]\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = "a"\n}\nresource "terraform_data" "b" {\n  input = "b"\n}\n`),
    ],
  },
  {
    name: "depends-on-change-no-update",
    about: "a depends_on target changes: the dependent does not change",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "a"\n}\nresource "terraform_data" "b" {\n  input      = "b"\n  depends_on = [terraform_data.a]\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = "a2"\n}\nresource "terraform_data" "b" {\n  input      = "b"\n  depends_on = [terraform_data.a]\n}\n`),
    ],
  },
  {
    name: "dependencies-through-locals",
    about: "dependencies recorded through locals and outputs of modules",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "a"\n}\nlocals {\n  via = upper(terraform_data.a.output)\n}\nresource "terraform_data" "b" {\n  input = local.via\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = "b"\n}\nlocals {\n  via = upper(terraform_data.a.output)\n}\nresource "terraform_data" "b" {\n  input = local.via\n}\n`),
    ],
  },
  {
    name: "delete-with-dependent",
    about: "removing a resource and its dependent together",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "a"\n}\nresource "terraform_data" "b" {\n  input = terraform_data.a.output\n}\nresource "terraform_data" "c" {\n  input = terraform_data.b.output\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = "a"\n}\n`),
    ],
  },
  {
    name: "delete-dependency-only",
    about: "a dependency removed while its dependent stays (the dependent's input changes)",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "a"\n}\nresource "terraform_data" "b" {\n  input = terraform_data.a.output\n}\n`),
      main(`resource "terraform_data" "b" {\n  input = "a"\n}\n`),
    ],
  },
];
