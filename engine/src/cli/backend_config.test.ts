// The backend every command uses (Meta.Backend): the configuration's block, evaluated statically,
// checked against what init recorded; and saved plans, which carry their backend and variables.
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { initCommand } from "./init.js";
import { planCommand } from "./plan.js";
import { showCommand } from "./show.js";
import { stateCommand } from "./state.js";

const flat = (s: string): string => s.replace(/[│╷╵]/g, "").replace(/\s+/g, " ");

const RESOURCE = `resource "terraform_data" "a" {
  input = "x"
}
`;

describe("the configured backend", () => {
  it("asks for init when the block is new, changed or gone", async () => {
    const { dir } = workDir({ "main.tf": `terraform {\n  backend "local" {\n    path = "a.tfstate"\n  }\n}\n${RESOURCE}` });
    const before = await runCommand(stateCommand, ["list"], dir);
    expect(before.code).toBe(1);
    expect(flat(before.stderr)).toContain('Error: Backend initialization required, please run "terrace init" Reason: Initial configuration of the requested backend "local"');

    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir)).code).toBe(0);
    expect(existsSync(path.join(dir, "a.tfstate"))).toBe(true);

    writeFileSync(path.join(dir, "main.tf"), `terraform {\n  backend "local" {\n    path = "b.tfstate"\n  }\n}\n${RESOURCE}`);
    const changed = await runCommand(planCommand, ["-no-color"], dir);
    expect(changed.code).toBe(1);
    expect(flat(changed.stderr)).toContain('Error: Backend initialization required: please run "terrace init" Reason: Backend configuration block has changed');

    writeFileSync(path.join(dir, "main.tf"), RESOURCE);
    const gone = await runCommand(planCommand, ["-no-color"], dir);
    expect(gone.code).toBe(1);
    expect(flat(gone.stderr)).toContain('Reason: Unsetting the previously set backend "local"');
  });

  it("accepts the same settings moved between the block and -backend-config", async () => {
    const { dir } = workDir({ "main.tf": `terraform {\n  backend "local" {}\n}\n${RESOURCE}` });
    expect((await runCommand(initCommand, ["-no-color", "-backend-config=path=c.tfstate"], dir)).code).toBe(0);
    const apply = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect(apply.stderr).toBe("");
    expect(existsSync(path.join(dir, "c.tfstate"))).toBe(true);
  });

  it("evaluates the block from variables, asking for one at the terminal when input is allowed", async () => {
    const { dir } = workDir({ "main.tf": `variable "p" {}\n\nterraform {\n  backend "local" {\n    path = var.p\n  }\n}\n${RESOURCE}` });
    expect((await runCommand(initCommand, ["-no-color", "-var=p=d.tfstate"], dir)).code).toBe(0);
    const missing = await runCommand(stateCommand, ["list"], dir);
    expect(missing.code).toBe(1);
    expect(flat(missing.stderr)).toContain("Error: Failed to request input from user for variable var.p");
    expect(flat(missing.stderr)).toContain("backend.local depends on var.p which is not available");
    // plan asks once, and the answer serves the backend and the plan alike.
    const asked = await runCommand(planCommand, ["-no-color"], dir, { stdin: "d.tfstate\n" });
    expect(asked.stderr).toBe("");
    expect(asked.code).toBe(0);
    expect(asked.stdout.match(/var\.p\n {2}Enter a value: /g)?.length).toBe(1);
    expect(asked.stdout).toContain("Plan: 1 to add, 0 to change, 0 to destroy.");
  });

  it("saves the backend and the variables in a plan, so show and apply of it need no -var", async () => {
    const { dir } = workDir({
      "main.tf": `variable "p" {}\nvariable "src" {}\n\nterraform {\n  backend "local" {\n    path = var.p\n  }\n}\n\nmodule "m" {\n  source = var.src\n}\n\noutput "o" {\n  value = module.m.o\n}\n`,
      "mod/main.tf": 'output "o" {\n  value = "from the module"\n}\n',
    });
    const vars = ["-var=p=e.tfstate", "-var=src=./mod"];
    expect((await runCommand(initCommand, ["-no-color", ...vars], dir)).code).toBe(0);
    expect((await runCommand(planCommand, ["-no-color", ...vars, "-out=saved.plan"], dir)).code).toBe(0);
    const shown = await runCommand(showCommand, ["-no-color", "saved.plan"], dir);
    expect(shown.stderr).toBe("");
    expect(shown.stdout).toContain('+ o = "from the module"');
    const applied = await runCommand(applyCommand, ["-no-color", "saved.plan"], dir);
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(0);
    expect(existsSync(path.join(dir, "e.tfstate"))).toBe(true);
    expect(existsSync(path.join(dir, "terraform.tfstate"))).toBe(false);
  });
});
