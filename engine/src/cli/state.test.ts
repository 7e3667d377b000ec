import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { stateCommand } from "./state.js";

const MAIN = `resource "terraform_data" "a" {
  input = "a"
}

resource "terraform_data" "b" {
  count = 2
  input = terraform_data.a.output
}

module "m" {
  source = "./m"
}
`;
const MOD = `resource "terraform_data" "x" {
  input = "x"
}
`;

async function applied(): Promise<string> {
  const { dir } = workDir({ "main.tf": MAIN, "m/main.tf": MOD });
  const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
  expect(a.stderr).toBe("");
  expect(a.code).toBe(0);
  return dir;
}

/** Diagnostics are wrapped at 78 columns; compare their words. */
const flat = (s: string): string => s.replace(/\s+/g, " ");
const list = async (dir: string): Promise<string> => (await runCommand(stateCommand, ["list"], dir)).stdout;
const stateJSON = (dir: string): { serial: number; lineage: string; resources: Array<{ name: string; provider: string; instances: Array<{ dependencies?: string[] }> }> } =>
  JSON.parse(readFileSync(path.join(dir, "terraform.tfstate"), "utf8"));
const backups = (dir: string): string[] => readdirSync(dir).filter((f) => /^terraform\.tfstate\.\d+\.backup$/.test(f));

describe("terrace state mv", () => {
  it("moves resources, instances and modules, as tofu prints it, with a timestamped backup", async () => {
    const dir = await applied();
    const before = readFileSync(path.join(dir, "terraform.tfstate"), "utf8");
    expect(await runCommand(stateCommand, ["mv", "-dry-run", "terraform_data.a", "terraform_data.c"], dir)).toEqual({
      code: 0,
      stdout: 'Would move "terraform_data.a" to "terraform_data.c"\n',
      stderr: "",
    });
    expect(readFileSync(path.join(dir, "terraform.tfstate"), "utf8")).toBe(before);
    expect(await runCommand(stateCommand, ["mv", "terraform_data.a", "terraform_data.c"], dir)).toEqual({
      code: 0,
      stdout: 'Move "terraform_data.a" to "terraform_data.c"\nSuccessfully moved 1 object(s).\n',
      stderr: "",
    });
    expect(backups(dir)).toHaveLength(1);
    expect(readFileSync(path.join(dir, backups(dir)[0] as string), "utf8")).toBe(before);
    expect((await runCommand(stateCommand, ["mv", "terraform_data.b[0]", "terraform_data.b[5]"], dir)).stdout).toBe(
      'Move "terraform_data.b[0]" to "terraform_data.b[5]"\nSuccessfully moved 1 object(s).\n',
    );
    expect((await runCommand(stateCommand, ["mv", "terraform_data.b", "terraform_data.d"], dir)).code).toBe(0);
    expect((await runCommand(stateCommand, ["mv", "module.m", "module.n"], dir)).stdout).toBe('Move "module.m" to "module.n"\nSuccessfully moved 1 object(s).\n');
    expect(await list(dir)).toBe("terraform_data.c\nterraform_data.d[1]\nterraform_data.d[5]\nmodule.n.terraform_data.x\n");
    // Dependencies on what moved are dropped, so the next apply records them again.
    const d = stateJSON(dir).resources.find((r) => r.name === "d");
    expect(d?.instances.every((i) => i.dependencies === undefined)).toBe(true);
    expect(stateJSON(dir).serial).toBe(5);
  });

  it("reports tofu's errors and leaves the state untouched", async () => {
    const dir = await applied();
    const before = readFileSync(path.join(dir, "terraform.tfstate"), "utf8");
    const missing = await runCommand(stateCommand, ["mv", "-no-color", "terraform_data.zz", "terraform_data.c"], dir);
    expect(missing.code).toBe(1);
    expect(flat(missing.stderr)).toContain("Error: Invalid source address");
    expect(flat(missing.stderr)).toContain("Cannot move terraform_data.zz: does not match anything in the current state.");
    const types = await runCommand(stateCommand, ["mv", "-no-color", "terraform_data.a", "null_resource.a"], dir);
    expect(flat(types.stderr)).toContain("Error: Invalid state move request");
    expect(flat(types.stderr)).toContain("Cannot move terraform_data.a to null_resource.a: resource types don't match.");
    const mode = await runCommand(stateCommand, ["mv", "-no-color", "terraform_data.a", "data.terraform_data.a"], dir);
    expect(flat(mode.stderr)).toContain("a managed resource can be moved only to another managed resource address.");
    const target = await runCommand(stateCommand, ["mv", "-no-color", "terraform_data.a", "module.n"], dir);
    expect(flat(target.stderr)).toContain("Error: Invalid target address");
    expect(flat(target.stderr)).toContain("the target must also be a resource instance.");
    const exists = await runCommand(stateCommand, ["mv", "-no-color", "terraform_data.a", "terraform_data.b[0]"], dir);
    expect(flat(exists.stderr)).toContain("there is already a resource instance at that address in the current state.");
    const syntax = await runCommand(stateCommand, ["mv", "-no-color", "terraform_data.a", "foo"], dir);
    expect(flat(syntax.stderr)).toContain("Resource specification must include a resource type and name.");
    const args = await runCommand(stateCommand, ["mv", "terraform_data.a"], dir);
    expect(args.code).toBe(1);
    expect(args.stderr).toBe("Exactly two arguments expected.\n\n");
    expect(args.stdout).toContain("Usage: terrace [global options] state (move|mv) [options] SOURCE DESTINATION");
    expect(readFileSync(path.join(dir, "terraform.tfstate"), "utf8")).toBe(before);
    expect(backups(dir)).toHaveLength(0);
  });

  it("moves into another state file with -state-out", async () => {
    const dir = await applied();
    const r = await runCommand(stateCommand, ["mv", "-state-out=other.tfstate", "module.m", "module.m"], dir);
    expect(r).toEqual({ code: 0, stdout: 'Move "module.m" to "module.m"\nSuccessfully moved 1 object(s).\n', stderr: "" });
    expect(await list(dir)).toBe("terraform_data.a\nterraform_data.b[0]\nterraform_data.b[1]\n");
    expect((await runCommand(stateCommand, ["list", "-state=other.tfstate"], dir)).stdout).toBe("module.m.terraform_data.x\n");
  });

  it("refuses while another process holds the lock", async () => {
    const dir = await applied();
    writeFileSync(
      path.join(dir, ".terraform.tfstate.lock.info"),
      JSON.stringify({ ID: "held-1", Operation: "OperationTypeApply", Info: "", Who: "x@y", Version: "1.11.0", Created: "2025-01-01T00:00:00Z", Path: "terraform.tfstate" }),
    );
    const r = await runCommand(stateCommand, ["mv", "-no-color", "terraform_data.a", "terraform_data.c"], dir);
    expect(r.code).toBe(1);
    expect(flat(r.stderr)).toContain("Error acquiring the state lock");
    expect(flat(r.stderr)).toContain("held-1");
    expect((await runCommand(stateCommand, ["mv", "-lock=false", "terraform_data.a", "terraform_data.c"], dir)).code).toBe(0);
  });
});

describe("terrace state rm", () => {
  it("removes instances, resources and modules", async () => {
    const dir = await applied();
    expect(await runCommand(stateCommand, ["rm", "-dry-run", "terraform_data.b"], dir)).toEqual({
      code: 0,
      stdout: "Would remove terraform_data.b[0]\nWould remove terraform_data.b[1]\n",
      stderr: "",
    });
    expect(await runCommand(stateCommand, ["rm", "-dry-run", "terraform_data.zz"], dir)).toEqual({ code: 0, stdout: "Would have removed nothing.\n", stderr: "" });
    expect(await runCommand(stateCommand, ["rm", "terraform_data.b", "terraform_data.a"], dir)).toEqual({
      code: 0,
      stdout: "Removed terraform_data.b[0]\nRemoved terraform_data.b[1]\nRemoved terraform_data.a\nSuccessfully removed 3 resource instance(s).\n",
      stderr: "",
    });
    expect(backups(dir)).toHaveLength(1);
    expect((await runCommand(stateCommand, ["rm", "module.m"], dir)).stdout).toBe("Removed module.m.terraform_data.x\nSuccessfully removed 1 resource instance(s).\n");
    expect(await list(dir)).toBe("");
    const none = await runCommand(stateCommand, ["rm", "-no-color", "module.m"], dir);
    expect(none.code).toBe(1);
    expect(flat(none.stderr)).toContain("Error: Invalid target address");
    expect(flat(none.stderr)).toContain('No matching objects found. To view the available instances, use "terrace state list".');
    const args = await runCommand(stateCommand, ["rm"], dir);
    expect(args.stderr).toBe("At least one address is required.\n\n");
  });

  it("says when there is no state", async () => {
    const { dir } = workDir({ "main.tf": MAIN, "m/main.tf": MOD });
    const r = await runCommand(stateCommand, ["rm", "terraform_data.a"], dir);
    expect(r.code).toBe(1);
    expect(flat(r.stderr)).toContain("No state file was found!");
    expect(existsSync(path.join(dir, "terraform.tfstate"))).toBe(false);
  });
});

describe("terrace state push", () => {
  it("checks lineage and serial as tofu does; -force overrides; the serial goes up on a change", async () => {
    const dir = await applied();
    writeFileSync(path.join(dir, "old.tfstate"), readFileSync(path.join(dir, "terraform.tfstate")));
    expect((await runCommand(stateCommand, ["rm", "terraform_data.a"], dir)).code).toBe(0);
    const { serial, lineage } = stateJSON(dir);
    const older = await runCommand(stateCommand, ["push", "-no-color", "old.tfstate"], dir);
    expect(older.code).toBe(1);
    expect(flat(older.stderr)).toContain("Error: Failed to write the imported state");
    expect(flat(older.stderr)).toContain(`cannot import state with serial ${serial - 1} over newer state with serial ${serial}`);
    const other = JSON.parse(readFileSync(path.join(dir, "old.tfstate"), "utf8"));
    other.lineage = "other";
    writeFileSync(path.join(dir, "other.tfstate"), JSON.stringify(other));
    const unrelated = await runCommand(stateCommand, ["push", "-no-color", "other.tfstate"], dir);
    expect(flat(unrelated.stderr)).toContain(`cannot import state with lineage "other" over unrelated state with lineage "${lineage}"`);
    expect(await runCommand(stateCommand, ["push", "-force", "old.tfstate"], dir)).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(stateJSON(dir).serial).toBe(serial);
    expect(await list(dir)).toContain("terraform_data.a\n");
    expect(existsSync(path.join(dir, "terraform.tfstate.backup"))).toBe(true);
    // The same content with a higher serial is taken as it is.
    other.lineage = lineage;
    other.serial = 40;
    const r = await runCommand(stateCommand, ["push", "-"], dir, { stdin: JSON.stringify(other) });
    expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(stateJSON(dir).serial).toBe(40);
  });

  it("reports unreadable sources", async () => {
    const dir = await applied();
    const missing = await runCommand(stateCommand, ["push", "-no-color", "nope.tfstate"], dir);
    expect(missing.code).toBe(1);
    expect(flat(missing.stderr)).toContain("Failed to open the given state file");
    writeFileSync(path.join(dir, "g.tfstate"), "garbage");
    const bad = await runCommand(stateCommand, ["push", "-no-color", "g.tfstate"], dir);
    expect(flat(bad.stderr)).toContain('Failed to read source state "g.tfstate"');
    expect((await runCommand(stateCommand, ["push"], dir)).stderr).toBe("Exactly one argument expected.\n\n");
  });
});

describe("terrace state replace-provider", () => {
  it("replaces the provider of every matching resource", async () => {
    const dir = await applied();
    const r = await runCommand(stateCommand, ["replace-provider", "-auto-approve", "terraform.io/builtin/terraform", "example.com/a/b"], dir);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(`OpenTofu will perform the following actions:

  ~ Updating provider:
    - terraform.io/builtin/terraform
    + example.com/a/b

Changing 3 resources:

  terraform_data.a
  terraform_data.b
  module.m.terraform_data.x

Successfully replaced provider for 3 resources.
`);
    expect(stateJSON(dir).resources.map((x) => x.provider)).toEqual([
      'provider["example.com/a/b"]',
      'provider["example.com/a/b"]',
      'provider["example.com/a/b"]',
    ]);
    expect((await runCommand(stateCommand, ["replace-provider", "-auto-approve", "hashicorp/nope", "example.com/a/c"], dir)).stdout).toBe("No matching resources found.\n");
    const no = await runCommand(stateCommand, ["replace-provider", "example.com/a/b", "example.com/a/c"], dir, { stdin: "no\n" });
    expect(no.stdout).toContain("Only 'yes' will be accepted to continue.\n\nEnter a value: Cancelled replacing providers.\n");
    expect(stateJSON(dir).resources[0]?.provider).toBe('provider["example.com/a/b"]');
    const bad = await runCommand(stateCommand, ["replace-provider", "-no-color", "a/b/c/d", "example.com/a/c"], dir);
    expect(bad.code).toBe(1);
    expect(flat(bad.stderr)).toContain('Error: Invalid "from" provider "a/b/c/d"');
  });
});
