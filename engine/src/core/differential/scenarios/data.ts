// Data sources: read while planning, or deferred to apply (a Read change) because the
// configuration is not known yet or something they depend on has changes pending; nested in
// check blocks (read during plan and again at apply, failures as warnings). The data source is
// `terraform_remote_state` with `backend = "local"`, which both sides have built in, reading
// state files written next to the configuration.
import type { Files, RunStep, Scenario } from "../scenario.js";

/** A state file (format 4) whose root outputs are the given strings. */
function stateFile(outputs: Readonly<Record<string, string>>): string {
  const out: Record<string, { value: string; type: string }> = {};
  for (const [k, v] of Object.entries(outputs)) out[k] = { value: v, type: "string" };
  return `${JSON.stringify({ version: 4, terraform_version: "1.11.0", serial: 1, lineage: "remote", outputs: out, resources: [], check_results: null }, null, 2)}\n`;
}

/** `main.tf` (and `mod/main.tf`) with `remote.tfstate` holding output `x`, plus any other files. */
function step(main: string, x: string, more: Omit<RunStep, "files"> & { mod?: string; extra?: Files } = {}): RunStep {
  const { mod, extra, ...opts } = more;
  return { files: { "main.tf": main, "remote.tfstate": stateFile({ x }), ...(mod ? { "mod/main.tf": mod } : {}), ...extra }, ...opts };
}

const remote = (name: string, extra = "", path = `"remote.tfstate"`) => `data "terraform_remote_state" "${name}" {
  backend = "local"
  config = {
    path = ${path}
  }${extra}
}
`;

const dependsOnPending = `variable "v" {
  default = "one"
}
resource "terraform_data" "x" {
  input = var.v
}
${remote("s", "\n  depends_on = [terraform_data.x]")}resource "terraform_data" "use" {
  input = data.terraform_remote_state.s.outputs.x
}
output "x" {
  value = data.terraform_remote_state.s.outputs.x
}
`;

const references = `variable "path" {
  default = "remote.tfstate"
}
variable "t" {
  default = "1"
}
resource "terraform_data" "p" {
  input            = var.path
  triggers_replace = var.t
}
locals {
  path = terraform_data.p.input
}
${remote("direct", "", "terraform_data.p.input")}${remote("via_output", "", "terraform_data.p.output")}${remote("via_local", "", "local.path")}resource "terraform_data" "use" {
  input = [
    data.terraform_remote_state.direct.outputs.x,
    data.terraform_remote_state.via_output.outputs.x,
    data.terraform_remote_state.via_local.outputs.x,
  ]
}
`;

const conditions = `resource "terraform_data" "p" {
  input = "remote.tfstate"
}
locals {
  path = terraform_data.p.input
}
${remote("plain", "", "local.path")}${remote(
  "checked",
  `
  lifecycle {
    postcondition {
      condition     = self.outputs.x != ""
      error_message = "x is empty."
    }
  }`,
  "local.path",
)}`;

const moduleDependsOn = `variable "v" {
  default = "one"
}
resource "terraform_data" "x" {
  input = var.v
}
module "m" {
  source     = "./mod"
  depends_on = [terraform_data.x]
}
output "x" {
  value = module.m.x
}
`;
const moduleWithData = `${remote("s")}output "x" {
  value = data.terraform_remote_state.s.outputs.x
}
`;

const dependsOnModule = `variable "v" {
  default = "one"
}
module "m" {
  source = "./mod"
  v      = var.v
}
${remote("s", "\n  depends_on = [module.m]")}`;
const moduleWithResource = `variable "v" {
  type = string
}
resource "terraform_data" "r" {
  input = var.v
}
`;

const perModuleInstance = `variable "a" {
  default = "one"
}
module "m" {
  source   = "./mod"
  for_each = { a = var.a, b = "fixed" }
  v        = each.value
}
output "x" {
  value = { for k, m in module.m : k => m.x }
}
`;
const moduleResourceAndData = `variable "v" {
  type = string
}
resource "terraform_data" "r" {
  input = var.v
}
${remote("s", "\n  depends_on = [terraform_data.r]")}output "x" {
  value = data.terraform_remote_state.s.outputs.x
}
`;

const checkNested = (path: string) => `resource "terraform_data" "x" {
  input = "x"
}
check "remote" {
  ${remote("nested", "", `"${path}"`).replace(/\n/g, "\n  ").trimEnd()}

  assert {
    condition     = data.terraform_remote_state.nested.outputs.x == "a"
    error_message = "x is not a."
  }
}
check "pending" {
  ${remote("waits", "\n  depends_on = [terraform_data.x]").replace(/\n/g, "\n  ").trimEnd()}

  assert {
    condition     = data.terraform_remote_state.waits.outputs.x != ""
    error_message = "x is empty."
  }
}
`;

const missing = (extra: string) => `${remote("s", extra, `"missing.tfstate"`)}resource "terraform_data" "x" {
  input = "x"
}
`;

const counted = `variable "v" {
  default = "one"
}
resource "terraform_data" "x" {
  count = 2
  input = "\${var.v}-\${count.index}"
}
data "terraform_remote_state" "s" {
  count   = 2
  backend = "local"
  config = {
    path = "remote.tfstate"
  }
  defaults = {
    index = terraform_data.x[count.index].input
  }
}
output "index" {
  value = data.terraform_remote_state.s[*].outputs.index
}
`;

export const DATA: Scenario[] = [
  {
    name: "data-read-at-plan",
    about: "a data source with a known configuration and no dependencies is read while planning; a new remote value updates its dependent",
    steps: [
      step(`${remote("s")}resource "terraform_data" "a" {\n  input = data.terraform_remote_state.s.outputs.x\n}\n`, "a"),
      step(`${remote("s")}resource "terraform_data" "a" {\n  input = data.terraform_remote_state.s.outputs.x\n}\n`, "b"),
      step(`${remote("s")}resource "terraform_data" "a" {\n  input = data.terraform_remote_state.s.outputs.x\n}\n`, "b"),
    ],
  },
  {
    name: "data-depends-on-pending",
    about: "depends_on a resource with a change pending defers the read (read_because_dependency_pending) and its dependents see unknown values; without changes it is read while planning",
    steps: [
      step(dependsOnPending, "a"),
      step(dependsOnPending, "a"),
      step(dependsOnPending, "a", { vars: { v: "two" } }),
      step(dependsOnPending, "b", { vars: { v: "two" } }),
      step(dependsOnPending, "c", { vars: { v: "two" }, mode: "refresh-only" }),
      step(dependsOnPending, "c", { vars: { v: "two" }, mode: "destroy" }),
    ],
  },
  {
    name: "data-references-managed",
    about: "a managed resource's attribute in the configuration: known but pending (dependency pending), unknown (config unknown), through a local (read while planning)",
    steps: [
      step(references, "a"),
      step(references, "a"),
      step(references, "a", { vars: { t: "2" } }),
      step(references, "a", { vars: { t: "2", path: "other.tfstate" }, extra: { "other.tfstate": stateFile({ x: "other" }) } }),
    ],
  },
  {
    name: "data-custom-conditions",
    about: "with a postcondition, any upstream change defers the read, even through a local",
    steps: [step(conditions, "a"), step(conditions, "a")],
  },
  {
    name: "data-module-depends-on",
    about: "depends_on on the module call holding a data source defers it while the dependency has changes",
    steps: [
      step(moduleDependsOn, "a", { mod: moduleWithData }),
      step(moduleDependsOn, "a", { mod: moduleWithData }),
      step(moduleDependsOn, "b", { mod: moduleWithData, vars: { v: "two" } }),
    ],
  },
  {
    name: "data-depends-on-module",
    about: "depends_on a module defers the read while anything in the module has changes",
    steps: [
      step(dependsOnModule, "a", { mod: moduleWithResource }),
      step(dependsOnModule, "a", { mod: moduleWithResource }),
      step(dependsOnModule, "a", { mod: moduleWithResource, vars: { v: "two" } }),
    ],
  },
  {
    name: "data-module-instances",
    about: "pending changes count only in the data source's own module instance",
    steps: [
      step(perModuleInstance, "a", { mod: moduleResourceAndData }),
      step(perModuleInstance, "a", { mod: moduleResourceAndData, vars: { a: "two" } }),
    ],
  },
  {
    name: "data-check-nested",
    about: "a data source in a check block is read while planning and again at apply (read_because_check_nested); a failed read is a warning and skips the assertions; one whose dependency is pending waits",
    steps: [
      step(checkNested("remote.tfstate"), "a"),
      step(checkNested("remote.tfstate"), "b"),
      step(checkNested("missing.tfstate"), "a"),
      step(checkNested("remote.tfstate"), "a"),
    ],
  },
  {
    name: "data-read-errors",
    about: "a data source that cannot be read fails the plan, or, when its read was deferred, the apply",
    steps: [
      step(missing(""), "a"),
      step(missing("\n  depends_on = [terraform_data.x]"), "a"),
      step(`${remote("s")}resource "terraform_data" "x" {\n  input = "x"\n}\n`, "a"),
    ],
  },
  {
    name: "data-removed",
    about: "a data block removed from the configuration leaves the state without a planned change",
    steps: [
      step(`${remote("s")}${remote("t")}resource "terraform_data" "x" {\n  input = data.terraform_remote_state.t.outputs.x\n}\n`, "a"),
      step(`${remote("t")}resource "terraform_data" "x" {\n  input = data.terraform_remote_state.t.outputs.x\n}\n`, "a"),
    ],
  },
  {
    name: "data-count-references",
    about: "data sources with count referring to managed resources per index: deferred while they change",
    steps: [step(counted, "a"), step(counted, "a"), step(counted, "a", { vars: { v: "two" } })],
  },
];
