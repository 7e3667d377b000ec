// Plan modes and options: -target, -refresh-only, -destroy, -refresh=false, plan-only steps,
// and state edits (state rm).
import { main, withModule, type Scenario } from "../scenario.js";

const three = (a: string, b: string, c: string) =>
  `resource "terraform_data" "a" {\n  input = "${a}"\n}\nresource "terraform_data" "b" {\n  input = "\${terraform_data.a.output}-${b}"\n}\nresource "terraform_data" "c" {\n  input = "${c}"\n}\noutput "b" {\n  value = terraform_data.b.output\n}\n`;
const leaf = `resource "terraform_data" "r" {\n  input = "m"\n}\n`;

export const MODES: Scenario[] = [
  {
    name: "target-resource",
    about: "-target one resource: only it (and what it depends on) is planned; a warning is printed",
    steps: [main(three("a", "b", "c"), { targets: ["terraform_data.c"] }), main(three("a", "b", "c"))],
  },
  {
    name: "target-with-dependency",
    about: "-target a resource pulls in its dependencies",
    steps: [main(three("a", "b", "c"), { targets: ["terraform_data.b"] }), main(three("a2", "b2", "c2"), { targets: ["terraform_data.b"] }), main(three("a2", "b2", "c2"))],
  },
  {
    name: "target-instance",
    about: "-target one count instance and one for_each instance",
    steps: [
      main(`resource "terraform_data" "c" {\n  count = 3\n  input = count.index\n}\nresource "terraform_data" "f" {\n  for_each = toset(["x", "y"])\n  input    = each.key\n}\n`, { targets: ["terraform_data.c[1]", 'terraform_data.f["y"]'] }), main(`resource "terraform_data" "c" {\n  count = 3\n  input = count.index\n}\nresource "terraform_data" "f" {\n  for_each = toset(["x", "y"])\n  input    = each.key\n}\n`)],
  },
  {
    name: "target-module",
    about: "-target a module: everything inside it",
    steps: [
      withModule(`module "m" {\n  source = "./mod"\n}\nresource "terraform_data" "root" {\n  input = "r"\n}\n`, leaf, { targets: ["module.m"] }),
      withModule(`module "m" {\n  source = "./mod"\n}\nresource "terraform_data" "root" {\n  input = "r"\n}\n`, leaf),
    ],
  },
  {
    name: "target-orphan",
    about: "-target an orphaned resource deletes only it",
    steps: [main(three("a", "b", "c")), main(`resource "terraform_data" "a" {\n  input = "a"\n}\n`, { targets: ["terraform_data.c"] }), main(`resource "terraform_data" "a" {\n  input = "a"\n}\n`)],
  },
  {
    name: "target-destroy",
    about: "-destroy with -target destroys the target and what depends on it",
    steps: [main(three("a", "b", "c")), main(three("a", "b", "c"), { mode: "destroy", targets: ["terraform_data.a"] })],
  },
  {
    name: "target-outputs",
    about: "outputs during a targeted apply",
    steps: [main(three("a", "b", "c"), { targets: ["terraform_data.a"] }), main(three("a", "b", "c"), { targets: ["terraform_data.b"] })],
  },
  {
    name: "destroy",
    about: "a destroy plan deletes everything in dependency order and removes the outputs",
    steps: [main(three("a", "b", "c")), main(three("a", "b", "c"), { mode: "destroy" }), main(three("a", "b", "c"))],
  },
  {
    name: "destroy-modules",
    about: "destroy with module instances and cbd resources",
    steps: [
      withModule(`module "m" {\n  source = "./mod"\n  count  = 2\n}\nresource "terraform_data" "x" {\n  input = "x"\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n`, leaf),
      withModule(`module "m" {\n  source = "./mod"\n  count  = 2\n}\nresource "terraform_data" "x" {\n  input = "x"\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n`, leaf, { mode: "destroy" }),
    ],
  },
  {
    name: "destroy-empty",
    about: "a destroy plan over an empty state",
    steps: [main(three("a", "b", "c"), { mode: "destroy" }), main(three("a", "b", "c"))],
  },
  {
    name: "destroy-with-orphans",
    about: "a destroy plan when the configuration no longer has some resources",
    steps: [main(three("a", "b", "c")), main(`resource "terraform_data" "a" {\n  input = "a"\n}\n`, { mode: "destroy" })],
  },
  {
    name: "refresh-only-outputs",
    about: "-refresh-only applies output changes but no resource changes",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "a"\n}\noutput "o" {\n  value = "one"\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = "changed"\n}\noutput "o" {\n  value = "two"\n}\noutput "p" {\n  value = terraform_data.a.output\n}\n`, { mode: "refresh-only" }),
      main(`resource "terraform_data" "a" {\n  input = "changed"\n}\noutput "o" {\n  value = "two"\n}\noutput "p" {\n  value = terraform_data.a.output\n}\n`),
    ],
  },
  {
    name: "refresh-only-orphan",
    about: "-refresh-only keeps resources that are no longer configured (an output change makes the plan applyable)",
    steps: [main(three("a", "b", "c")), main(`resource "terraform_data" "a" {\n  input = "a"\n}\noutput "b" {\n  value = "changed"\n}\n`, { mode: "refresh-only" })],
  },
  {
    name: "refresh-false",
    about: "-refresh=false plans from the state as it is",
    steps: [main(three("a", "b", "c")), main(three("a", "b2", "c"), { refresh: false })],
  },
  {
    name: "plan-only",
    about: "a plan that is not applied leaves the state untouched",
    steps: [main(three("a", "b", "c")), main(three("x", "y", "z"), { planOnly: true }), main(three("a", "b", "c2"))],
  },
  {
    name: "state-rm",
    about: "state rm forgets an object; the next plan creates it again",
    steps: [main(three("a", "b", "c")), { edit: "rm", addr: "terraform_data.c" }, main(three("a", "b", "c"))],
  },
  {
    name: "state-rm-dependency",
    about: "state rm of a resource other resources depend on",
    steps: [main(three("a", "b", "c")), { edit: "rm", addr: "terraform_data.a" }, main(three("a", "b", "c"))],
  },
];
