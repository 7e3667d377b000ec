// staticValidation, which validate and plan both run before anything is evaluated: module call
// arguments against the child's variables, self-referencing locals and depends_on entries, with
// OpenTofu's texts and ranges (those of `terraform validate -json` 1.11, which match).
import { describe, expect, it } from "vitest";
import { Loader, MemoryFS, type Config } from "../configs/index.js";
import { hasErrors, type Diagnostic, type Range } from "../hcl/index.js";
import { staticValidation } from "./validate.js";

function load(files: Record<string, string>): Config {
  const r = new Loader({ fs: new MemoryFS(files), workingDir: "." }).loadConfig(".");
  if (hasErrors(r.diagnostics) || !r.config) throw new Error(r.diagnostics.map((d) => d.summary).join("; "));
  return r.config;
}

const at = (r: Range | undefined) => (r ? `${r.filename}:${r.start.line}:${r.start.column}-${r.end.line}:${r.end.column}` : "");

function check(files: Record<string, string>): string[] {
  return staticValidation(load(files), () => undefined).map((d: Diagnostic) => `${d.severity} ${at(d.subject)} ${d.summary}: ${d.detail}`);
}

describe("module call arguments (ModuleVariableTransformer)", () => {
  const child = { "m/main.tf": 'variable "a" {\n  default = 1\n}\nvariable "n" {\n  default = null\n}\n' };

  it("rejects an argument the child does not declare (m03)", () => {
    expect(check({ ...child, "main.tf": 'module "m" {\n  source = "./m"\n  bogus  = 1\n}\n' })).toEqual([
      'error main.tf:3:3-3:8 Unsupported argument: An argument named "bogus" is not expected here.',
    ]);
  });

  it("rejects `provider =`, which is no meta-argument of a module call (y01)", () => {
    expect(check({ ...child, "main.tf": 'module "m" {\n  source   = "./m"\n  provider = terraform\n}\n' })).toEqual([
      'error main.tf:3:3-3:11 Unsupported argument: An argument named "provider" is not expected here.',
    ]);
  });

  // An empty range at the opening brace (the body's MissingItemRange); rendering widens it by one.
  it("requires the variables without a default (m02), at the call's opening brace", () => {
    expect(check({ "m/main.tf": 'variable "req" {}\n', "main.tf": 'module "m" {\n  source = "./m"\n}\n' })).toEqual([
      'error main.tf:1:12-1:12 Missing required argument: The argument "req" is required, but no definition was found.',
    ]);
  });

  it("accepts declared arguments, and escaped ones in a `_` block", () => {
    expect(check({ ...child, "main.tf": 'module "m" {\n  source = "./m"\n  a = 2\n  _ {\n    n = 3\n  }\n}\n' })).toEqual([]);
  });
});

describe("local values", () => {
  it("rejects a local that refers to itself (c03), and not what refers to it", () => {
    expect(check({ "main.tf": 'locals {\n  a = local.a\n}\noutput "o" {\n  value = local.a\n}\n' })).toEqual([
      "error main.tf:2:7-2:14 Self-referencing local value: Local value local.a cannot use its own result as part of its expression.",
    ]);
  });

  it("keeps the whole expression as the context", () => {
    const [d] = staticValidation(load({ "main.tf": 'locals {\n  a = [local.a, 1]\n}\n' }), () => undefined);
    expect([at(d?.subject), at(d?.context)]).toEqual(["main.tf:2:8-2:15", "main.tf:2:7-2:19"]);
  });
});

describe("depends_on (validateDependsOn)", () => {
  it("rejects an attribute of an object, on the attribute steps (dp03)", () => {
    expect(check({ "main.tf": 'resource "terraform_data" "b" {}\nresource "terraform_data" "a" {\n  depends_on = [terraform_data.b.id]\n}\n' })).toEqual([
      "error main.tf:3:33-3:36 Invalid depends_on reference: References in depends_on must be to a whole object (resource, etc), not to an attribute of an object.",
    ]);
  });

  it("rejects an undeclared resource (dp04)", () => {
    expect(check({ "main.tf": 'resource "terraform_data" "a" {\n  depends_on = [terraform_data.missing]\n}\n' })).toEqual([
      'error main.tf:2:17-2:39 Reference to undeclared resource: A managed resource "terraform_data" "missing" has not been declared in the root module.',
    ]);
  });

  it("accepts whole resources, modules and variables", () => {
    expect(
      check({
        "m/main.tf": "",
        "main.tf": 'variable "v" {\n  default = 1\n}\nmodule "m" {\n  source = "./m"\n}\nresource "terraform_data" "b" {}\nresource "terraform_data" "a" {\n  depends_on = [terraform_data.b, module.m, var.v]\n}\n',
      }),
    ).toEqual([]);
  });
});

describe("terraform_data bodies", () => {
  it("names the block type a `dynamic` block stands for, on its label (u23)", () => {
    expect(check({ "main.tf": 'resource "terraform_data" "a" {\n  dynamic "lifecycle" {\n    for_each = []\n    content {\n    }\n  }\n}\n' })).toEqual([
      'error main.tf:2:11-2:22 Unsupported block type: Blocks of type "lifecycle" are not expected here.',
    ]);
  });
});
