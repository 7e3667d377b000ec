// Interoperability with the real `terraform` CLI (v1.11 on PATH): it must read what we write, and
// we must read and re-write what it writes. Skipped, with the reason printed, without terraform.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  AbsProviderConfig,
  ConfigResource,
  Resource as ResourceAddr,
  RootModule,

  intKey,
  newBuiltInProvider,
  stringKey,
} from "../addrs/index.js";
import { SENSITIVE, mark, stringVal } from "../values/index.js";
import { LocalStore, newObjectSrc, newState, readStateFile, statesEqual, writeStateFile } from "./index.js";

function terraformVersion(): string | undefined {
  const r = spawnSync("terraform", ["version", "-json"], { encoding: "utf8", env: { ...process.env, CHECKPOINT_DISABLE: "1", TF_CLI_CONFIG_FILE: "/dev/null" } });
  if (r.status !== 0) return undefined;
  return (JSON.parse(r.stdout) as { terraform_version: string }).terraform_version;
}
const tfVersion = terraformVersion();
if (!tfVersion) console.log("states terraform interop: skipped, `terraform` is not on PATH");

function tf(dir: string, args: string[]): { status: number; stdout: string; stderr: string } {
  const cfg = path.join(dir, ".terraformrc");
  writeFileSync(cfg, "");
  const r = spawnSync("terraform", args, {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1", TF_CLI_CONFIG_FILE: cfg, TF_INPUT: "0" },
  });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const CONFIG = `
resource "terraform_data" "a" {
  count = 2
  input = "a-\${count.index}"
}
resource "terraform_data" "b" {
  for_each = toset(["x", "y"])
  input    = { name = each.key, html = "<&>" }
  lifecycle { create_before_destroy = true }
}
resource "terraform_data" "c" {
  input = terraform_data.a[0].output
}
output "ids" {
  value     = terraform_data.a[*].id
  sensitive = true
}
output "name" { value = "terrace" }
`;

describe.skipIf(!tfVersion)(`terraform ${tfVersion ?? ""} interop`, () => {
  it("terraform reads a state we wrote, and plans no changes against it", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "terrace-tf-read-"));
    writeFileSync(
      path.join(dir, "main.tf"),
      `
resource "terraform_data" "a" {
  count = 2
  input = "a-\${count.index}"
}
resource "terraform_data" "b" {
  for_each = toset(["x"])
  input    = "b-\${each.key}"
}
output "name" { value = "terrace" }
`,
    );
    const provider = new AbsProviderConfig(RootModule, newBuiltInProvider("terraform"));
    const s = newState();
    const root = s.rootModule();
    const data = (id: string, input: string): string =>
      JSON.stringify({ id, input: { value: input, type: "string" }, output: { value: input, type: "string" }, triggers_replace: null });
    const a = new ResourceAddr("managed", "terraform_data", "a");
    const b = new ResourceAddr("managed", "terraform_data", "b");
    root.setResourceInstanceCurrent(a.instance(intKey(0)), newObjectSrc({ attrsJSON: data("id-a0", "a-0") }), provider);
    root.setResourceInstanceCurrent(a.instance(intKey(1)), newObjectSrc({ attrsJSON: data("id-a1", "a-1"), dependencies: [new ConfigResource(RootModule, b)] }), provider);
    root.setResourceInstanceCurrent(b.instance(stringKey("x")), newObjectSrc({ attrsJSON: data("id-bx", "b-x"), createBeforeDestroy: true }), provider);
    root.setOutputValue("name", stringVal("terrace"), false);
    const w = writeStateFile({ terraformVersion: "1.11.0", serial: 7, lineage: "11111111-2222-3333-4444-555555555555", state: s });
    expect(w.ok).toBe(true);
    if (!w.ok) return;
    writeFileSync(path.join(dir, "terraform.tfstate"), w.bytes);

    expect(tf(dir, ["init", "-input=false"]).status).toBe(0);
    const list = tf(dir, ["state", "list"]);
    expect(list.stderr).toBe("");
    expect(list.stdout.trim().split("\n")).toEqual(["terraform_data.a[0]", "terraform_data.a[1]", 'terraform_data.b["x"]']);
    const show = JSON.parse(tf(dir, ["show", "-json"]).stdout) as {
      values: { outputs: Record<string, { value: unknown }>; root_module: { resources: Array<{ address: string; values: { id: string } }> } };
    };
    expect(show.values.outputs["name"]?.value).toBe("terrace");
    expect(show.values.root_module.resources.map((r) => `${r.address}=${r.values.id}`)).toEqual([
      "terraform_data.a[0]=id-a0",
      "terraform_data.a[1]=id-a1",
      'terraform_data.b["x"]=id-bx',
    ]);
    // No changes: terraform agrees with every attribute we wrote.
    const plan = tf(dir, ["plan", "-detailed-exitcode", "-input=false", "-lock=false"]);
    expect(plan.status, plan.stdout + plan.stderr).toBe(0);
  }, 60000);

  it("we read what terraform wrote after an apply, and write it back byte for byte", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "terrace-tf-write-"));
    writeFileSync(path.join(dir, "main.tf"), CONFIG);
    expect(tf(dir, ["init", "-input=false"]).status).toBe(0);
    const apply = tf(dir, ["apply", "-auto-approve", "-input=false"]);
    expect(apply.status, apply.stderr).toBe(0);
    const written = readFileSync(path.join(dir, "terraform.tfstate"));
    const r = readStateFile(written);
    expect(r.kind).toBe("ok");
    if (r.kind !== "ok") return;
    expect(r.file.terraformVersion).toBe(tfVersion);
    expect([...r.file.state.allResources()].map((x) => x.addr.toString()).sort()).toEqual(["terraform_data.a", "terraform_data.b", "terraform_data.c"]);
    expect(r.file.state.rootModule().outputValues.get("ids")?.sensitive).toBe(true);
    const back = writeStateFile(r.file, { terraformVersion: undefined });
    expect(back.ok && back.text).toBe(written.toString("utf8"));
    if (!back.ok) return;
    const again = readStateFile(back.bytes);
    expect(again.kind === "ok" && statesEqual(again.file.state, r.file.state)).toBe(true);

    // And after our store persists a change, terraform still works with the file.
    const store = new LocalStore(path.join(dir, "terraform.tfstate"));
    return store.refresh().then(async (d) => {
      expect(d).toEqual([]);
      const st = store.state();
      if (!st) throw new Error("no state");
      st.rootModule().setOutputValue("extra", mark(stringVal("s"), SENSITIVE), true);
      store.write(st);
      expect(await store.persist()).toEqual([]);
      const show = JSON.parse(execFileSync("terraform", ["show", "-json"], { cwd: dir, encoding: "utf8", env: { ...process.env, CHECKPOINT_DISABLE: "1", TF_CLI_CONFIG_FILE: "/dev/null" } })) as {
        values: { outputs: Record<string, { sensitive: boolean }> };
      };
      expect(show.values.outputs["extra"]?.sensitive).toBe(true);
      expect(readFileSync(path.join(dir, "terraform.tfstate.backup"), "utf8")).toBe(written.toString("utf8"));
      const plan = tf(dir, ["plan", "-detailed-exitcode", "-input=false", "-refresh=false"]);
      // The extra output is not in the configuration, so terraform plans to remove it (exit 2).
      expect(plan.status, plan.stderr).toBe(2);
    });
  }, 60000);
});

