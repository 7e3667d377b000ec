// `-json` on plan, apply, destroy and refresh, checked message for message against terraform 1.11
// (skipped with a printed reason when it is not on PATH); the progress line on a terminal; the
// state lock flags; `terrace refresh`.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { applyCommand, destroyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import type { Command, CommandIO } from "./io.js";
import { hclogJSONTime } from "../logging/index.js";
import { goDuration, objectValueID } from "./jsonview.js";
import { planCommand } from "./plan.js";
import { refreshCommand } from "./refresh.js";
import { StringType, mark, nullVal, objectVal, stringVal } from "../values/index.js";

const MAIN = `variable "name" {
  default = "world"
}

resource "terraform_data" "a" {
  input = "hello \${var.name}"
}

resource "terraform_data" "b" {
  count = 2
  input = "\${terraform_data.a.output}-\${count.index}"
}

output "greeting" {
  value = terraform_data.a.output
}

output "secret" {
  value     = "<s&>"
  sensitive = true
}

output "html" {
  value = "<b>&</b>"
}
`;

function hasTerraform(): boolean {
  try {
    execFileSync("terraform", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
const TERRAFORM = hasTerraform();
if (!TERRAFORM) console.log("jsonview: terraform comparison skipped, terraform is not on PATH");

function tf(dir: string, args: string[]): { code: number; stdout: string } {
  try {
    const stdout = execFileSync("terraform", args, {
      cwd: dir,
      env: { ...process.env, TF_CLI_CONFIG_FILE: path.join(dir, "missing.tfrc"), TF_IN_AUTOMATION: "1" },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    return { code: 0, stdout };
  } catch (e) {
    const err = e as { status: number; stdout: string };
    return { code: err.status, stdout: err.stdout };
  }
}

type Msg = Record<string, unknown>;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** Lines as objects with timestamps, ids and the product name masked. */
function normalize(out: string, ours: boolean): Msg[] {
  return out
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => {
      // Texts that name the product say OpenTofu in tofu.
      const m = JSON.parse((ours ? l : l.replace(/\bTerraform\b/g, "OpenTofu")).replace(UUID, "<uuid>")) as Msg;
      expect(m["@timestamp"]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}(Z|[+-]\d\d:\d\d)$/);
      m["@timestamp"] = "<ts>";
      // Elapsed times depend on where the second boundaries fall.
      if (typeof m["@message"] === "string") m["@message"] = m["@message"].replace(/ after \d+s/, " after <n>s");
      const hook = m["hook"] as Record<string, unknown> | undefined;
      if (hook && "elapsed_seconds" in hook) hook["elapsed_seconds"] = "<n>";
      if (m["type"] === "version") return { type: "version" };
      m["@module"] = ours ? m["@module"] : "tofu.ui";
      // OpenTofu's change summary counts forgotten objects too; terraform 1.11 has no such field.
      const changes = m["changes"] as Record<string, unknown> | undefined;
      if (ours && changes) {
        expect(changes["forget"]).toBe(0);
        delete changes["forget"];
      }
      return m;
    });
}

/** The messages as a multiset (hooks run concurrently), and the order of the non-hook ones. */
function shape(msgs: Msg[]): { all: string[]; order: string[] } {
  const all = msgs.map((m) => JSON.stringify(m)).sort();
  const order = msgs.filter((m) => !["planned_change", "apply_start", "apply_complete", "refresh_start", "refresh_complete"].includes(m["type"] as string)).map((m) => JSON.stringify(m));
  return { all, order };
}

async function compare(dir: string, tfDir: string, cmd: Command, args: string[]): Promise<Msg[]> {
  const ours = await runCommand(cmd, args, dir);
  const name = cmd === planCommand ? "plan" : cmd === refreshCommand ? "refresh" : cmd === destroyCommand ? "destroy" : "apply";
  const theirs = tf(tfDir, [name, ...args]);
  expect(ours.stderr).toBe("");
  expect(ours.code).toBe(theirs.code);
  const a = normalize(ours.stdout, true);
  const b = normalize(theirs.stdout, false);
  expect(a[0]).toEqual({ type: "version" });
  expect(shape(a)).toEqual(shape(b));
  // Parsing hides escapes: the outputs' raw text must match too.
  const html = (out: string) => [...out.matchAll(/"html":\{[^}]*\}/g)].map((m) => m[0]);
  expect(html(ours.stdout)).toEqual(html(theirs.stdout));
  return a;
}

describe("-json against terraform 1.11", () => {
  it.skipIf(!TERRAFORM)("plan, apply, refresh, destroy stream the same messages", async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    const tfDir = path.join(dir, "..", "tf");
    mkdirSync(tfDir);
    writeFileSync(path.join(tfDir, "main.tf"), MAIN);
    const noApprove = await compare(dir, tfDir, applyCommand, ["-json"]);
    expect(noApprove[1]?.["@message"]).toBe("Error: Plan file or auto-approve required");
    await compare(dir, tfDir, planCommand, ["-json"]);
    await compare(dir, tfDir, planCommand, ["-json", "-detailed-exitcode"]);
    const applied = await compare(dir, tfDir, applyCommand, ["-json", "-auto-approve"]);
    // Output values are HTML-escaped as ctyjson writes them; the sensitive one has no value.
    expect((await runCommand(refreshCommand, ["-json"], dir)).stdout).toContain('"html":{"sensitive":false,"type":"string","value":"\\u003cb\\u003e\\u0026\\u003c/b\\u003e"},"secret":{"sensitive":true,"type":"string"}');
    expect(applied.map((m) => m["type"])).toContain("apply_complete");
    await compare(dir, tfDir, planCommand, ["-json", "-detailed-exitcode"]);
    await compare(dir, tfDir, refreshCommand, ["-json"]);
    await compare(dir, tfDir, applyCommand, ["-json", "-auto-approve", "-destroy"]);
    await compare(dir, tfDir, applyCommand, ["-json", "-auto-approve"]);
    await compare(dir, tfDir, destroyCommand, ["-json", "-auto-approve"]);

    // A saved plan: its changes as planned_change, no summary until the apply's.
    expect((await runCommand(planCommand, ["-out=p.tfplan"], dir)).code).toBe(0);
    expect(tf(tfDir, ["plan", "-out=p.tfplan"]).code).toBe(0);
    await compare(dir, tfDir, applyCommand, ["-json", "p.tfplan"]);

    // A moved block: a "move" planned change, and resource drift in refresh-only mode.
    const moved = MAIN.replace('"terraform_data" "a"', '"terraform_data" "c"').replaceAll("terraform_data.a.output", "terraform_data.c.output") + "\nmoved {\n  from = terraform_data.a\n  to   = terraform_data.c\n}\n";
    writeFileSync(path.join(dir, "main.tf"), moved);
    writeFileSync(path.join(tfDir, "main.tf"), moved);
    const plan = await compare(dir, tfDir, planCommand, ["-json"]);
    expect(plan.find((m) => m["@message"] === "terraform_data.c: Plan to move")).toBeDefined();
    const drift = await compare(dir, tfDir, planCommand, ["-json", "-refresh-only"]);
    expect(drift.find((m) => m["@message"] === "terraform_data.c: Drift detected (move)")).toBeDefined();
  }, 120_000);

  it.skipIf(!TERRAFORM)("reports configuration errors as diagnostic messages with exit status 1", async () => {
    const bad = 'resource "terraform_data" "a" {\n  input = var.missing\n}\n';
    const { dir } = workDir({ "main.tf": bad });
    const tfDir = path.join(dir, "..", "tf");
    cpSync(dir, tfDir, { recursive: true });
    const msgs = await compare(dir, tfDir, planCommand, ["-json"]);
    expect(msgs[1]?.["@level"]).toBe("error");
  }, 60_000);
});

describe("the JSON view's pieces", () => {
  it("formats durations and timestamps as Go and hclog do", () => {
    expect([0, 9, 64, 3600, 3725].map(goDuration)).toEqual(["0s", "9s", "1m4s", "1h0m0s", "1h2m5s"]);
    expect(hclogJSONTime(new Date(2025, 0, 2, 3, 4, 5, 67))).toMatch(/^2025-01-02T03:04:05\.067000(Z|[+-]\d\d:\d\d)$/);
  });

  it("takes the id, else the name, of an object, but never a sensitive one", () => {
    expect(objectValueID(objectVal({ id: stringVal("i-1"), name: stringVal("n") }))).toEqual(["id", "i-1"]);
    expect(objectValueID(objectVal({ name: stringVal("n") }))).toEqual(["name", "n"]);
    // Go's switch stops at a string "id" even when it is null.
    expect(objectValueID(objectVal({ id: nullVal(StringType), name: stringVal("n") }))).toEqual(["", ""]);
    expect(objectValueID(objectVal({ id: mark(stringVal("s"), "sensitive") }))).toEqual(["", ""]);
  });
});

/** A terminal-like stdout that records what is written. */
async function runOnTTY(cmd: Command, args: string[], cwd: string): Promise<{ code: number; stdout: string }> {
  let stdout = "";
  const io: CommandIO = {
    stdin: Readable.from([]),
    stdout: { write: (s: string) => (stdout += s), isTTY: true },
    stderr: { write: () => true, isTTY: true },
    cwd,
    env: { HOME: path.join(cwd, "..", "home") },
  };
  const code = await cmd(args, io);
  return { code, stdout };
}

describe("walk progress on a terminal", () => {
  const MANY = 'resource "terraform_data" "n" {\n  count = 40\n  input = count.index\n}\n';

  it("shows one updating N/M line, leaving exactly the plain text on screen; never off a terminal or with -json", async () => {
    const { dir } = workDir({ "main.tf": MANY });
    const other = path.join(dir, "..", "plain");
    cpSync(dir, other, { recursive: true });
    const args = ["-auto-approve", "-no-color", "-parallelism=1"];
    const tty = await runOnTTY(applyCommand, args, dir);
    const plain = await runCommand(applyCommand, args, other);
    expect(tty.code).toBe(0);
    const updates = [...tty.stdout.matchAll(/\r\u001b\[K(\d+)\/(\d+)/g)].map((m) => [Number(m[1]), Number(m[2])] as const);
    expect(updates.length).toBeGreaterThan(1);
    for (const [done, total] of updates) expect(done).toBeLessThanOrEqual(total);
    const mask = (s: string) => s.replace(UUID, "<uuid>");
    expect(mask(screen(tty.stdout))).toBe(mask(plain.stdout));
    expect(plain.stdout).not.toContain("\r");

    const json = await runOnTTY(planCommand, ["-json"], dir);
    expect(json.stdout).not.toContain("\r");
  }, 60_000);
});

/** What a terminal shows after `s`: "\r" returns to the line's start, ESC[K erases the rest of it. */
function screen(s: string): string {
  const lines: string[] = [""];
  let col = 0;
  for (let i = 0; i < s.length; i++) {
    const cur = lines.length - 1;
    if (s.startsWith("\u001b[K", i)) {
      lines[cur] = (lines[cur] as string).slice(0, col);
      i += 2;
    } else if (s[i] === "\r") col = 0;
    else if (s[i] === "\n") {
      lines.push("");
      col = 0;
    } else {
      const line = lines[cur] as string;
      lines[cur] = line.slice(0, col) + (s[i] as string) + line.slice(col + 1);
      col++;
    }
  }
  return lines.join("\n");
}

describe("state locking flags", () => {
  const LOCK = JSON.stringify({ ID: "held", Operation: "OperationTypeApply", Info: "", Who: "x@y", Version: "1.11.0", Created: "2025-01-01T00:00:00Z", Path: "terraform.tfstate" });

  it("plan, apply and refresh wait for a held lock; -lock=false runs without it", async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    expect((await runCommand(applyCommand, ["-auto-approve", "-no-color"], dir)).code).toBe(0);
    writeFileSync(path.join(dir, ".terraform.tfstate.lock.info"), LOCK);
    for (const [cmd, args] of [
      [planCommand, []],
      [applyCommand, ["-auto-approve"]],
      [refreshCommand, []],
    ] as const) {
      const held = await runCommand(cmd, ["-no-color", ...args], dir);
      expect(held.code).toBe(1);
      expect(held.stderr).toContain("Error acquiring the state lock");
    }
    const json = await runCommand(planCommand, ["-json"], dir);
    expect(json.code).toBe(1);
    expect(json.stdout).toContain('"@message":"Error: Error acquiring the state lock"');
    const unlocked = await runCommand(planCommand, ["-no-color", "-lock=false"], dir);
    expect(unlocked.code).toBe(0);
    expect(existsSync(path.join(dir, ".terraform.tfstate.lock.info"))).toBe(true);
  }, 60_000);

  it("releases the lock after a plan and rejects a malformed -lock-timeout", async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    expect((await runCommand(planCommand, ["-no-color", "-lock-timeout=1s"], dir)).code).toBe(0);
    expect(existsSync(path.join(dir, ".terraform.tfstate.lock.info"))).toBe(false);
    const bad = await runCommand(planCommand, ["-no-color", "-lock-timeout=soon"], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('invalid value "soon" for flag -lock-timeout: parse error');
  }, 60_000);
});

describe("terrace refresh", () => {
  it("refreshes and shows the outputs; warns about an empty state", async () => {
    const { dir } = workDir({ "main.tf": MAIN });
    const empty = await runCommand(refreshCommand, ["-no-color"], dir);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toContain("Warning: Empty or non-existent state");
    expect((await runCommand(applyCommand, ["-auto-approve", "-no-color"], dir)).code).toBe(0);
    const r = await runCommand(refreshCommand, ["-no-color"], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^terraform_data\.a: Refreshing state\.\.\. \[id=/);
    expect(r.stdout).toContain('\nOutputs:\n\ngreeting = "hello world"\nhtml = "<b>&</b>"\nsecret = <sensitive>\n');
    const extra = await runCommand(refreshCommand, ["-no-color", "x"], dir);
    expect(extra.code).toBe(1);
    expect(extra.stderr).toContain("Too many command line arguments");
  }, 60_000);
});
