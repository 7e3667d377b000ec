// The real `terraform` CLI keeping its state in Terrace (`backend "http"` with an API token):
// init, apply, a second apply, two concurrent applies, force-unlock, and a rollback that the next
// plan sees. Skipped, with the reason printed, where terraform is not installed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { runProcess, succeeded, type Result } from "./process";

function findOnPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const p = path.join(dir, name);
    if (dir && existsSync(p)) return p;
  }
  return null;
}

const terraform = findOnPath("terraform");
if (!terraform) console.log("skipped: terraform not on PATH");

const base = process.env.TERRACE_TEST_URL!;
const token = process.env.TERRACE_TEST_ADMIN_TOKEN!;
const ws = `tf-${randomUUID().slice(0, 8)}`;
const address = `${base}/api/v1/state/default/${ws}`;

const root = mkdtempSync(path.join(os.tmpdir(), "terrace-tf-"));
const cliConfig = path.join(root, "empty.tfrc");
writeFileSync(cliConfig, "");

const tf = (dir: string, ...args: string[]) => tfWith({}, dir, ...args);

function tfWith(env: Record<string, string>, dir: string, ...args: string[]): Promise<Result> {
  return runProcess(terraform!, args, {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      HOME: root,
      TF_CLI_CONFIG_FILE: cliConfig,
      CHECKPOINT_DISABLE: "1",
      TF_IN_AUTOMATION: "1",
      TF_HTTP_PASSWORD: token,
      ...env,
    },
  });
}

const ok = (r: Result) => succeeded("terraform", r);

/** A working directory with the config: `label` feeds two resources, one of them slow to create. */
function workdir(name: string): string {
  const dir = path.join(root, name);
  mkdirSync(dir);
  writeFileSync(
    path.join(dir, "main.tf"),
    `terraform {
  backend "http" {
    address        = "${address}"
    lock_address   = "${address}/lock"
    unlock_address = "${address}/lock"
    username       = "terraform"
  }
}

variable "label" {
  type = string
}

resource "terraform_data" "label" {
  input = var.label
}

# Replaced on every new label, and takes a second to create: an apply holds the lock long
# enough for a concurrent one to meet it.
resource "terraform_data" "slow" {
  triggers_replace = var.label
  provisioner "local-exec" {
    command = "sleep 1"
  }
}

output "label" {
  value = terraform_data.label.output
}
`,
  );
  return dir;
}

async function api(method: string, p: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(p, base), { method, headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) } }, (res) => {
      let data = "";
      res.on("data", (c) => (data += c));
      res.on("end", () => resolve({ status: res.statusCode!, body: data }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function history(): Promise<number[]> {
  const r = await api("GET", `/api/v1/orgs/default/workspaces/${ws}/state-versions?pageSize=200`);
  expect(r.status).toBe(200);
  return (JSON.parse(r.body).data as Array<{ serial: number }>).map((v) => v.serial).sort((a, b) => a - b);
}

async function currentState(): Promise<{ serial: number; lineage: string; outputs: Record<string, { value: unknown }> }> {
  const r = await api("GET", `/api/v1/state/default/${ws}`);
  expect(r.status).toBe(200);
  return JSON.parse(r.body);
}

const apply = (dir: string, label: string) => tf(dir, "apply", "-auto-approve", "-input=false", "-no-color", `-var=label=${label}`);

describe.skipIf(!terraform)("terraform CLI with backend \"http\"", () => {
  const a = workdir("a");
  const b = workdir("b");

  beforeAll(async () => {
    const inits = await Promise.all([a, b].map((d) => tf(d, "init", "-input=false", "-no-color")));
    inits.forEach(ok);
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("applies twice; both versions are in history", async () => {
    ok(await apply(a, "one"));
    const first = await currentState();
    expect(first.outputs.label!.value).toBe("one");
    ok(await apply(a, "two"));
    const second = await currentState();
    expect(second.outputs.label!.value).toBe("two");
    expect(second.lineage).toBe(first.lineage);
    expect(second.serial).toBeGreaterThan(first.serial);
    const serials = await history();
    expect(serials).toContain(first.serial);
    expect(serials).toContain(second.serial);
  });

  it("of two concurrent applies one fails on the lock; the state stays intact and history keeps every success", async () => {
    const before = await currentState();
    const [ra, rb] = await Promise.all([apply(a, "three"), apply(b, "four")]);
    const results = [ra, rb];
    const winners = results.filter((r) => r.code === 0);
    const losers = results.filter((r) => r.code !== 0);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(1);
    expect(losers[0]!.stderr).toContain("Error acquiring the state lock");
    const after = await currentState();
    expect(after.lineage).toBe(before.lineage);
    expect(after.outputs.label!.value).toBe(ra.code === 0 ? "three" : "four");
    const serials = await history();
    expect(serials).toContain(before.serial);
    expect(serials).toContain(after.serial);
    expect(Math.max(...serials)).toBe(after.serial);
    // Nobody is left holding the lock.
    expect(JSON.parse((await api("GET", `/api/v1/orgs/default/workspaces/${ws}/lock`)).body)).toEqual({ locked: false });
  });

  it("force-unlock breaks a lock another client holds, and it is audited", async () => {
    const id = randomUUID();
    const lock = JSON.stringify({ ID: id, Operation: "OperationTypeApply", Info: "", Who: "someone@else", Version: "1.11.4", Created: new Date().toISOString(), Path: "" });
    expect((await api("LOCK", `/api/v1/state/default/${ws}/lock`, lock)).status).toBe(200);
    const blocked = await tf(a, "plan", "-input=false", "-no-color", "-var=label=x");
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain("Error acquiring the state lock");
    expect(blocked.stderr).toContain(id);
    const r = ok(await tf(a, "force-unlock", "-force", "-no-color", id));
    expect(r.stdout).toContain("successfully unlocked");
    expect(JSON.parse((await api("GET", `/api/v1/orgs/default/workspaces/${ws}/lock`)).body)).toEqual({ locked: false });
    const audit = await api("GET", `/api/v1/orgs/default/audit?action=state.force_unlock&pageSize=200`);
    expect(audit.status).toBe(200);
    const entries = (JSON.parse(audit.body).data as Array<{ targetLabel: string; detail: { lockId: string } }>).filter((e) => e.targetLabel === ws);
    expect(entries.map((e) => e.detail.lockId)).toContain(id);
  });

  it("a push of another lineage is refused and changes nothing; a bad token is refused", async () => {
    const before = await currentState();
    const other = path.join(root, "other.tfstate");
    writeFileSync(other, JSON.stringify({ version: 4, terraform_version: "1.11.4", serial: before.serial + 5, lineage: randomUUID(), outputs: {}, resources: [], check_results: null }, null, 2));
    const push = await tf(a, "state", "push", "-force", other);
    expect(push.code).toBe(1);
    const after = await currentState();
    expect(after).toEqual(before);
    expect(JSON.parse((await api("GET", `/api/v1/orgs/default/workspaces/${ws}/lock`)).body)).toEqual({ locked: false });

    const bad = workdir("bad-token");
    const r = await tfWith({ TF_HTTP_PASSWORD: "trc_not-a-valid-token" }, bad, "init", "-input=false", "-no-color");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("HTTP remote state endpoint requires auth");
  });

  it("a rollback through the API is what the next plan sees", async () => {
    const current = await currentState();
    const serials = await history();
    const rb = await api("POST", `/api/v1/orgs/default/workspaces/${ws}/state-versions/${serials[0]}/rollback`);
    expect(rb.status).toBe(201);
    expect(JSON.parse(rb.body).data.serial).toBe(current.serial + 1);
    const pulled = JSON.parse(ok(await tf(a, "state", "pull")).stdout);
    expect(pulled).toMatchObject({ serial: current.serial + 1, lineage: current.lineage, outputs: { label: { value: "one" } } });
    // The config still says the current label; the rolled-back state says "one": a change.
    const plan = await tf(a, "plan", "-detailed-exitcode", "-input=false", "-no-color", `-var=label=${current.outputs.label!.value}`);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain(`"one" -> "${current.outputs.label!.value}"`);
  });
});
