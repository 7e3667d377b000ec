// ignore_changes (lists and all) and prevent_destroy.
import { main, withModule, type Scenario } from "../scenario.js";

const ignored = (input: string, trig: string, ignore: string) =>
  `resource "terraform_data" "a" {\n  input            = ${input}\n  triggers_replace = ${trig}\n  lifecycle {\n    ignore_changes = ${ignore}\n  }\n}\noutput "o" {\n  value = terraform_data.a.output\n}\n`;
const guarded = (input: string, extra = "") => `resource "terraform_data" "a" {\n  input = ${input}\n${extra}  lifecycle {\n    prevent_destroy = true\n  }\n}\n`;

export const LIFECYCLE: Scenario[] = [
  {
    name: "ignore-changes-input",
    about: "ignore_changes = [input]: input changes are ignored, trigger changes still replace",
    steps: [main(ignored(`"1"`, `"t"`, "[input]")), main(ignored(`"2"`, `"t"`, "[input]")), main(ignored(`"3"`, `"t2"`, "[input]"))],
  },
  {
    name: "ignore-changes-triggers",
    about: "ignore_changes = [triggers_replace]: trigger changes ignored, input changes update",
    steps: [main(ignored(`"1"`, `"t"`, "[triggers_replace]")), main(ignored(`"1"`, `"t2"`, "[triggers_replace]")), main(ignored(`"2"`, `"t3"`, "[triggers_replace]"))],
  },
  {
    name: "ignore-changes-all",
    about: "ignore_changes = all: nothing changes after creation",
    steps: [main(ignored(`"1"`, `"t"`, "all")), main(ignored(`"2"`, `"t2"`, "all"))],
  },
  {
    name: "ignore-changes-added",
    about: "ignore_changes added after a change was made: the drifted config is not applied",
    steps: [main(`resource "terraform_data" "a" {\n  input = "1"\n}\n`), main(ignored(`"2"`, "null", "[input]")), main(`resource "terraform_data" "a" {\n  input = "2"\n}\n`)],
  },
  {
    name: "ignore-changes-nested",
    about: "ignore_changes on an element of an object-typed input: terraform ignores changes of the other attributes too",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = { k = "1", j = "1" }\n  lifecycle {\n    ignore_changes = [input["k"]]\n  }\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = { k = "2", j = "1" }\n  lifecycle {\n    ignore_changes = [input["k"]]\n  }\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = { k = "3", j = "2" }\n  lifecycle {\n    ignore_changes = [input["k"]]\n  }\n}\n`),
    ],
  },
  {
    name: "ignore-changes-count-new-instance",
    about: "ignore_changes does not stop new count instances from taking the configuration",
    steps: [
      main(`variable "v" {\n  default = "1"\n}\nvariable "n" {\n  default = 1\n}\nresource "terraform_data" "r" {\n  count = var.n\n  input = var.v\n  lifecycle {\n    ignore_changes = [input]\n  }\n}\n`),
      main(`variable "v" {\n  default = "1"\n}\nvariable "n" {\n  default = 1\n}\nresource "terraform_data" "r" {\n  count = var.n\n  input = var.v\n  lifecycle {\n    ignore_changes = [input]\n  }\n}\n`, { vars: { v: "2", n: "2" } }),
    ],
  },
  {
    name: "prevent-destroy-delete",
    about: "prevent_destroy with the resource removed from configuration is allowed (only planned destroys of configured resources fail)",
    steps: [main(guarded(`"x"`)), main(`# gone\n`)],
  },
  {
    name: "prevent-destroy-replace",
    about: "prevent_destroy blocks a replacement: plan error",
    steps: [main(guarded(`"x"`, `  triggers_replace = "1"\n`)), main(guarded(`"x"`, `  triggers_replace = "2"\n`))],
  },
  {
    name: "prevent-destroy-update",
    about: "prevent_destroy does not block an in-place update",
    steps: [main(guarded(`"x"`)), main(guarded(`"y"`))],
  },
  {
    name: "prevent-destroy-destroy-mode",
    about: "prevent_destroy blocks a destroy plan",
    steps: [main(guarded(`"x"`)), main(guarded(`"x"`), { mode: "destroy" })],
  },
  {
    name: "prevent-destroy-count-shrink",
    about: "prevent_destroy on count instances: shrinking the count",
    steps: [
      main(`resource "terraform_data" "r" {\n  count = 2\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n`),
      main(`resource "terraform_data" "r" {\n  count = 1\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n`),
    ],
  },
  {
    name: "prevent-destroy-taint",
    about: "prevent_destroy on a tainted object: the replacement is an error",
    steps: [main(guarded(`"x"`)), { edit: "taint", addr: "terraform_data.a" }, main(guarded(`"x"`))],
  },
  {
    name: "prevent-destroy-lifted",
    about: "prevent_destroy set to false, then the replacement goes ahead",
    steps: [
      main(guarded(`"x"`, `  triggers_replace = "1"\n`)),
      main(`resource "terraform_data" "a" {\n  input            = "x"\n  triggers_replace = "2"\n  lifecycle {\n    prevent_destroy = false\n  }\n}\n`),
    ],
  },
  {
    name: "prevent-destroy-module",
    about: "prevent_destroy inside a module whose instance key goes away",
    steps: [
      withModule(`module "m" {\n  source = "./mod"\n  count  = 1\n}\n`, `resource "terraform_data" "r" {\n  triggers_replace = "1"\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n`),
      withModule(`module "m" {\n  source = "./mod"\n  count  = 1\n}\n`, `resource "terraform_data" "r" {\n  triggers_replace = "2"\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n`),
    ],
  },
];
