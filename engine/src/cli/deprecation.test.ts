// OpenTofu's deprecated module variables and outputs: a module call that sets a variable whose
// declaration says `deprecated = "…"` is warned at that argument, and an expression reading a
// deprecated output of a module call at that reference. The texts are those of OpenTofu's e2e test
// for the feature (consolidated-warnings-for-deprecated-marks): plan reports a variable once from
// the validate walk and once from the plan walk, folded into one per variable; an output only from
// the plan walk, folded by output and message.
import { describe, expect, it } from "vitest";
import type { ModuleCall, Variable } from "../configs/index.js";
import { deprecatedVariableWarning } from "../core/deprecation.js";
import type { Range } from "../hcl/index.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { planCommand } from "./plan.js";
import { validateCommand } from "./validate.js";

const FILES = {
  "main.tf": 'module "call" {\n  source = "./mod"\n  input  = "test"\n  input2 = "test2"\n}\n',
  "mod/main.tf":
    'variable "input" {\n  type       = string\n  deprecated = "this is local deprecated"\n}\nvariable "input2" {\n  type       = string\n  deprecated = "this is local deprecated2"\n}\nvariable "unused" {\n  type       = string\n  default    = "x"\n  deprecated = "not set by the call: no warning"\n}\n',
};

const warning = (line: number, code: string, name: string, message: string, folded: boolean) =>
  `\nWarning: Variable marked as deprecated by the module author\n\n  on main.tf line ${line}, in module "call":\n   ${line}: ${code}\n\nVariable "${name}" is marked as deprecated with the following message:\n${message}\n${folded ? "\n(and one more similar warning elsewhere)\n" : ""}`;

describe("deprecated module variables", () => {
  it("plan warns at each argument that sets one, each variable on its own", async () => {
    const { dir } = workDir(FILES);
    const r = await runCommand(planCommand, ["-no-color"], dir);
    expect(r.code).toBe(0);
    const tail = warning(3, '  input  = "test"', "input", "this is local deprecated", true) + warning(4, '  input2 = "test2"', "input2", "this is local deprecated2", true);
    expect(r.stdout.endsWith(tail)).toBe(true);
    expect(r.stdout).not.toContain("not set by the call");
  });

  it("validate warns once for each", async () => {
    const { dir } = workDir(FILES);
    const r = await runCommand(validateCommand, ["-no-color"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      warning(3, '  input  = "test"', "input", "this is local deprecated", false) +
        warning(4, '  input2 = "test2"', "input2", "this is local deprecated2", false) +
        "Success! The configuration is valid, but there were some validation warnings\nas shown above.\n\n",
    );
  });

  it("an expression reading a deprecated output is warned where it reads it, not downstream", async () => {
    const { dir } = workDir({
      "main.tf":
        'module "call" {\n  source = "./mod"\n}\nlocals {\n  i1 = module.call.modout1\n  i2 = module.call.modout2\n}\noutput "o" {\n  value = "${local.i1}-${module.call.modout1}-${module.call.fine}"\n}\n',
      "mod/main.tf":
        'output "modout1" {\n  value      = "a"\n  deprecated = "output deprecated"\n}\noutput "modout2" {\n  value      = "b"\n  deprecated = "output deprecated"\n}\noutput "fine" {\n  value = "c"\n}\n',
    });
    const r = await runCommand(planCommand, ["-no-color"], dir);
    expect(r.code).toBe(0);
    const derived = (line: number, code: string, by: string, folded: boolean) =>
      `\nWarning: Value derived from a deprecated source\n\n  on main.tf line ${line}, in locals:\n   ${line}: ${code}\n\nThis value is derived from ${by}, which is deprecated with the\nfollowing message:\n\noutput deprecated\n${folded ? "\n(and one more similar warning elsewhere)\n" : ""}`;
    // modout1 is also read in output "o": folded into the first place it is read.
    expect(r.stdout).toContain(derived(5, "  i1 = module.call.modout1", "module.call.modout1", true) + derived(6, "  i2 = module.call.modout2", "module.call.modout2", false));
    expect(r.stdout).not.toContain("module.call.fine, which");
    // validate does not report them, as tofu's validate walk (module outputs are unknown there).
    const v = await runCommand(validateCommand, ["-no-color"], dir);
    expect(v.stdout).toBe("Success! The configuration is valid.\n\n");
  });

  it("-deprecation=module:none drops them; module:local keeps those of modules called by path", async () => {
    const { dir } = workDir(FILES);
    const none = await runCommand(planCommand, ["-no-color", "-deprecation=module:none"], dir);
    expect(none.code).toBe(0);
    expect(none.stdout).not.toContain("deprecated");
    const bad = await runCommand(planCommand, ["-no-color", "-deprecation=backend:all"], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("flag provided but not defined: -deprecation");
    const local = await runCommand(planCommand, ["-no-color", "-deprecation=module:local"], dir);
    expect(local.stdout).toContain('Variable "input" is marked as deprecated');
  });

  it("module:local leaves out modules from a registry or another remote source", () => {
    const decl = { name: "v", deprecated: "gone soon" } as Variable;
    const at: Range = { filename: "main.tf", start: { line: 1, column: 1, byte: 0 }, end: { line: 1, column: 2, byte: 1 } };
    const remote = { sourceAddr: { kind: "registry" } } as unknown as ModuleCall;
    const local = { sourceAddr: { kind: "local", path: "./m" } } as unknown as ModuleCall;
    expect(deprecatedVariableWarning(remote, decl, at, "local")).toBeUndefined();
    expect(deprecatedVariableWarning(local, decl, at, "local")?.detail).toBe('Variable "v" is marked as deprecated with the following message:\ngone soon');
    expect(deprecatedVariableWarning(remote, decl, at, "all")).toBeDefined();
    expect(deprecatedVariableWarning(local, { ...decl, deprecated: "" }, at)).toBeUndefined();
  });
});
