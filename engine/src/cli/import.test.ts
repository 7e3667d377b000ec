// `terrace import` and `import` blocks through the CLI: terraform_data (the builtin provider, with
// terraform 1.11 as the oracle for the command's output and the state it writes, when it is on
// PATH) and the bundled `sim` provider as a real plugin process.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { applyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { importCommand } from "./import.js";
import { planCommand } from "./plan.js";

const DATA = 'resource "terraform_data" "a" {\n  input = "x"\n}\n';

interface StateJSON {
  resources?: Array<{ mode: string; type: string; name: string; provider: string; instances: Array<{ index_key?: unknown; attributes: Record<string, unknown> }> }>;
}

function stateOf(dir: string): StateJSON {
  return JSON.parse(readFileSync(path.join(dir, "terraform.tfstate"), "utf8")) as StateJSON;
}

function terraform(): boolean {
  try {
    execFileSync("terraform", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
const hasTerraform = terraform();
if (!hasTerraform) console.log("import CLI: terraform comparison skipped, terraform is not on PATH");

/** Runs terraform in `dir` (no CLI config), returning stdout and stderr together. */
function tf(dir: string, args: string[]): { code: number; out: string } {
  try {
    const out = execFileSync("terraform", args, { cwd: dir, env: { ...process.env, TF_CLI_CONFIG_FILE: path.join(dir, "missing.tfrc"), TF_IN_AUTOMATION: "1" }, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    return { code: 0, out };
  } catch (e) {
    const err = e as { status?: number; stdout?: string; stderr?: string };
    return { code: err.status ?? 1, out: `${err.stdout ?? ""}${err.stderr ?? ""}` };
  }
}

describe("terrace import with terraform_data", () => {
  it("imports, prints tofu's progress and success lines, and refuses a second import", async () => {
    const { dir } = workDir({ "main.tf": DATA });
    const r = await runCommand(importCommand, ["-no-color", "terraform_data.a", "my-id"], dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'terraform_data.a: Importing from ID "my-id"...\nterraform_data.a: Import prepared!\n  Prepared terraform_data for import\nterraform_data.a: Refreshing state... [id=my-id]\n\nImport successful!\n\nThe resources that were imported are shown above. These resources are now in\nyour OpenTofu state and will henceforth be managed by OpenTofu.\n\n',
    );
    expect(stateOf(dir).resources).toEqual([
      {
        mode: "managed",
        type: "terraform_data",
        name: "a",
        provider: 'provider["terraform.io/builtin/terraform"]',
        instances: [{ schema_version: 0, attributes: { id: "my-id", input: null, output: null, triggers_replace: null }, sensitive_attributes: [] }],
      },
    ]);
    // -no-color may follow the arguments (tofu's Meta.process takes it from anywhere).
    const again = await runCommand(importCommand, ["terraform_data.a", "my-id", "-no-color"], dir);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("Error: Resource already managed by OpenTofu");
    expect(again.stderr).not.toContain("│");
    expect(again.stderr.replace(/\s+/g, " ")).toContain("OpenTofu is already managing a remote object for terraform_data.a. To import to this address you must first remove the existing object from the state.");
  });

  it("rejects addresses the configuration does not declare, data resources and wrong argument counts", async () => {
    const { dir } = workDir({ "main.tf": DATA });
    const missing = await runCommand(importCommand, ["-no-color", "terraform_data.b", "x"], dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      'Error: resource address "terraform_data.b" does not exist in the configuration.\n\nBefore importing this resource, please create its configuration in the root module. For example:\n\nresource "terraform_data" "b" {\n  # (resource arguments)\n}\n\n',
    );
    const mod = await runCommand(importCommand, ["-no-color", "module.m.terraform_data.a", "x"], dir);
    expect(mod.code).toBe(1);
    expect(mod.stderr).toContain("Error: Import to non-existent module");
    expect(mod.stderr.replace(/\s+/g, " ")).toContain("module.m is not defined in the configuration. Please add configuration for this module before importing into it.");
    const data = await runCommand(importCommand, ["-no-color", "data.terraform_remote_state.s", "x"], dir);
    expect(data.code).toBe(1);
    expect(data.stderr.replace(/\s+/g, " ")).toContain("A managed resource address is required. Importing into a data resource is not allowed.");
    const args = await runCommand(importCommand, ["-no-color", "terraform_data.a"], dir);
    expect(args.code).toBe(1);
    expect(args.stderr).toContain("The import command expects two arguments.");
  });

  it.skipIf(!hasTerraform)("writes what terraform 1.11 writes and prints the same lines", async () => {
    const { dir } = workDir({ "main.tf": DATA });
    const ours = await runCommand(importCommand, ["-no-color", "terraform_data.a", "my-id"], dir);
    const tfDir = mkdtempSync(path.join(tmpdir(), "terrace-tf-import-"));
    onTestFinished(() => rmSync(tfDir, { recursive: true, force: true }));
    execFileSync("cp", [path.join(dir, "main.tf"), tfDir]);
    expect(tf(tfDir, ["init", "-no-color"]).code).toBe(0);
    const theirs = tf(tfDir, ["import", "-no-color", "terraform_data.a", "my-id"]);
    expect(theirs.code).toBe(0);
    const lines = (s: string) =>
      s
        .split("\n")
        .filter((l) => l.includes("terraform_data.a") || l.includes("Prepared") || l.includes("Import successful"))
        .map((l) => l.replaceAll("Terraform", "OpenTofu"));
    expect(lines(ours.stdout)).toEqual(lines(theirs.out));
    const pick = (s: StateJSON) => s.resources?.map((r) => ({ ...r, provider: r.provider.replace("registry.terraform.io", "registry.opentofu.org") }));
    expect(pick(stateOf(dir))).toEqual(pick(JSON.parse(readFileSync(path.join(tfDir, "terraform.tfstate"), "utf8")) as StateJSON));
  }, 120_000);
});

describe("import blocks through plan and apply", () => {
  it("plans the import as tofu prints it, applies it, and plans no changes after", async () => {
    const { dir } = workDir({ "main.tf": `${DATA}import {\n  to = terraform_data.a\n  id = "abc-123"\n}\n` });
    const p = await runCommand(planCommand, ["-no-color"], dir);
    expect(p.stderr).toBe("");
    expect(p.code).toBe(0);
    expect(p.stdout).toContain("terraform_data.a: Preparing import... [id=abc-123]\nterraform_data.a: Refreshing state... [id=abc-123]\n");
    expect(p.stdout).toContain("  # terraform_data.a will be updated in-place\n  # (imported from \"abc-123\")\n");
    expect(p.stdout).toContain("Plan: 1 to import, 0 to add, 1 to change, 0 to destroy.");
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect(a.stderr).toBe("");
    expect(a.code).toBe(0);
    expect(stateOf(dir).resources?.[0]?.instances[0]?.attributes).toEqual({ id: "abc-123", input: { value: "x", type: "string" }, output: { value: "x", type: "string" }, triggers_replace: null });
    const again = await runCommand(planCommand, ["-no-color", "-detailed-exitcode"], dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("No changes. Your infrastructure matches the configuration.");
  });
});

describe("the sim provider as a plugin", () => {
  const config = (dataDir: string, extra = "") =>
    `terraform {\n  required_providers {\n    sim = { source = "terrace/sim" }\n  }\n}\nprovider "sim" {\n  region   = "us-east-1"\n  data_dir = ${JSON.stringify(dataDir)}\n}\nresource "sim_bucket" "b" {\n  name = "logs"\n}\n${extra}`;

  it("imports an object made elsewhere with the command and with a block, then plans no changes", async () => {
    const { initCommand } = await import("./init.js");
    const cloud = mkdtempSync(path.join(tmpdir(), "terrace-sim-import-"));
    onTestFinished(() => rmSync(cloud, { recursive: true, force: true }));
    // The bucket is made by another configuration, as if by hand.
    const maker = workDir({ "main.tf": config(cloud) });
    expect((await runCommand(initCommand, ["-no-color"], maker.dir)).code).toBe(0);
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], maker.dir)).code).toBe(0);

    const cmd = workDir({ "main.tf": config(cloud) });
    expect((await runCommand(initCommand, ["-no-color"], cmd.dir)).code).toBe(0);
    const gone = await runCommand(importCommand, ["-no-color", "sim_bucket.b", "nope"], cmd.dir);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("Cannot import non-existent remote object");
    const r = await runCommand(importCommand, ["-no-color", "sim_bucket.b", "logs"], cmd.dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("sim_bucket.b: Import prepared!\n  Prepared sim_bucket for import\n");
    expect(stateOf(cmd.dir).resources?.[0]?.instances[0]?.attributes["name"]).toBe("logs");
    const p = await runCommand(planCommand, ["-no-color", "-detailed-exitcode"], cmd.dir);
    expect(p.code).toBe(0);

    const block = workDir({ "main.tf": config(cloud, 'import {\n  to = sim_bucket.b\n  id = "logs"\n}\n') });
    expect((await runCommand(initCommand, ["-no-color"], block.dir)).code).toBe(0);
    const bp = await runCommand(planCommand, ["-no-color"], block.dir);
    expect(bp.stderr).toBe("");
    expect(bp.stdout).toContain("  # sim_bucket.b will be imported\n");
    expect(bp.stdout).toContain("Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.");
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], block.dir)).code).toBe(0);
    expect(stateOf(block.dir).resources?.[0]?.instances[0]?.attributes["name"]).toBe("logs");
    const again = await runCommand(planCommand, ["-no-color", "-detailed-exitcode"], block.dir);
    expect(again.code).toBe(0);
  }, 180_000);
});
