// Combinations of the behaviours above: deposed objects left by a failed create_before_destroy,
// create_before_destroy forced across a module boundary, replace_triggered_by with for_each,
// output sensitivity changes, -replace against ignore_changes, removed for a guarded resource.
import { main, withModule, type Scenario } from "../scenario.js";

const cbdProv = (trigger: string, command: string) =>
  `resource "terraform_data" "a" {\n  triggers_replace = "${trigger}"\n  lifecycle {\n    create_before_destroy = true\n  }\n  provisioner "local-exec" {\n    command = "${command}"\n  }\n}\n`;
const srcDst = `variable "v" {\n  type    = map(string)\n  default = { x = "1", y = "1" }\n}\nresource "terraform_data" "src" {\n  for_each = var.v\n  input    = each.value\n}\nresource "terraform_data" "dst" {\n  for_each = var.v\n  lifecycle {\n    replace_triggered_by = [terraform_data.src[each.key]]\n  }\n}\n`;
const out = (sensitive: boolean) => `resource "terraform_data" "a" {\n  input = "v"\n}\noutput "o" {\n  value     = terraform_data.a.output\n  sensitive = ${sensitive}\n}\n`;

export const MORE: Scenario[] = [
  {
    name: "cbd-failure-deposed",
    about: "a create_before_destroy replacement whose provisioner fails: the new object is tainted, the old one stays deposed; the next plan replaces the first and deletes the second",
    steps: [main(cbdProv("1", "true")), main(cbdProv("2", "exit 1")), main(cbdProv("2", "true"))],
  },
  {
    name: "cbd-propagation-module",
    about: "create_before_destroy inside a module forces it onto the root resource the module depends on",
    steps: [
      withModule(`resource "terraform_data" "a" {\n  triggers_replace = "1"\n}\nmodule "m" {\n  source = "./mod"\n  dep    = terraform_data.a.id\n}\n`, `variable "dep" {}\nresource "terraform_data" "r" {\n  triggers_replace = var.dep\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n`),
      withModule(`resource "terraform_data" "a" {\n  triggers_replace = "2"\n}\nmodule "m" {\n  source = "./mod"\n  dep    = terraform_data.a.id\n}\n`, `variable "dep" {}\nresource "terraform_data" "r" {\n  triggers_replace = var.dep\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n`),
    ],
  },
  {
    name: "replace-triggered-by-foreach",
    about: "replace_triggered_by with each.key: only the instance whose source changed is replaced",
    steps: [main(srcDst), main(srcDst, { vars: { v: '{x="1", y="2"}' } })],
  },
  {
    name: "output-sensitivity-change",
    about: "a root output becomes sensitive and then not, with the same value: the output changes, resources do not",
    steps: [main(out(false)), main(out(true)), main(out(false))],
  },
  {
    name: "replace-option-ignore-all",
    about: "-replace still replaces a resource with ignore_changes = all",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "1"\n  lifecycle {\n    ignore_changes = all\n  }\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = "2"\n  lifecycle {\n    ignore_changes = all\n  }\n}\n`, { replace: ["terraform_data.a"] }),
    ],
  },
  {
    name: "removed-prevent-destroy",
    about: "a prevent_destroy resource replaced by a removed block that forgets it",
    steps: [
      main(`resource "terraform_data" "a" {\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n`),
      main(`removed {\n  from = terraform_data.a\n  lifecycle {\n    destroy = false\n  }\n}\n`),
    ],
  },
];
