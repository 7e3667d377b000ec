// Durable apply, end to end: a real `terrace apply` process is killed with SIGKILL in the middle
// of its walk; every object it reported as created must then be in the state, and the next plan
// and apply must do only the rest (states/README.md, "Durability").
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { LocalStore, lockInfoPath, parseLockInfo } from "../states/index.js";
import { applyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { planCommand } from "./plan.js";
import { stateCommand } from "./state.js";

const COUNT = 400;
const DEPENDENTS = 100;
const KILL_AFTER = 40;

const CONFIG = `resource "terraform_data" "r" {
  count = ${COUNT}
  input = "r-\${count.index}"
}

resource "terraform_data" "d" {
  count = ${DEPENDENTS}
  input = terraform_data.r[count.index].output
}
`;

// The CLI from the sources (what bin/terrace.mjs falls back to), so the test never runs a stale dist.
const mainTs = fileURLToPath(new URL("./main.ts", import.meta.url));
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

interface Killed {
  stdout: string;
  signal: NodeJS.Signals | null;
}

/** Runs `terrace apply -auto-approve` and SIGKILLs it once it has reported `after` creations. */
function applyAndKill(dir: string, home: string, after: number): Promise<Killed> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", tsxLoader, mainTs, "apply", "-auto-approve", "-no-color"], {
      cwd: dir,
      env: { ...process.env, HOME: home },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let killed = false;
    child.stdout.setEncoding("utf8").on("data", (s: string) => {
      stdout += s;
      if (!killed && (stdout.match(/: Creation complete after /g)?.length ?? 0) >= after) {
        killed = true;
        child.kill("SIGKILL");
      }
    });
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    child.on("error", reject);
    // Lines already in the pipe when the kill landed were printed by the process: they count.
    child.on("close", (_code, signal) => (killed ? resolve({ stdout, signal }) : reject(new Error(`apply was not killed:\n${stdout}\n${stderr}`))));
  });
}

function reportedCreated(stdout: string): Set<string> {
  return new Set([...stdout.matchAll(/^(\S+): Creation complete after /gm)].map((m) => m[1] as string));
}

function allAddrs(): string[] {
  const out: string[] = [];
  for (let i = 0; i < COUNT; i++) out.push(`terraform_data.r[${i}]`);
  for (let i = 0; i < DEPENDENTS; i++) out.push(`terraform_data.d[${i}]`);
  return out;
}

describe("durable apply", () => {
  it("keeps every object a SIGKILLed apply reported as created; plan and apply then do only the rest", async () => {
    const { dir, home } = workDir({ "main.tf": CONFIG });
    const statePath = path.join(dir, "terraform.tfstate");
    const killed = await applyAndKill(dir, home, KILL_AFTER);
    expect(killed.signal).toBe("SIGKILL");
    expect(killed.stdout).not.toContain("Apply complete!");
    const reported = reportedCreated(killed.stdout);
    expect(reported.size).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(reported.size).toBeLessThan(COUNT + DEPENDENTS);
    // No snapshot was written per object: the journal alone holds them.
    expect(existsSync(statePath)).toBe(false);
    expect(existsSync(new LocalStore(statePath).journalPath)).toBe(true);

    // The kill left the apply's lock file behind, but its process is gone: the next command
    // takes the lock over (as after a killed tofu, whose fcntl lock died with it) and writes the
    // journal's changes into the state.
    expect(parseLockInfo(readFileSync(lockInfoPath(statePath)))?.operation).toBe("OperationTypeApply");
    const list = await runCommand(stateCommand, ["list"], dir, { home });
    expect(list.code).toBe(0);
    const listed = new Set(list.stdout.split("\n").filter((l) => l !== ""));
    for (const a of reported) expect(listed.has(a), `${a} was reported created but is not in the state`).toBe(true);
    for (const a of listed) expect(allAddrs()).toContain(a);
    expect(existsSync(statePath)).toBe(true);
    expect(existsSync(new LocalStore(statePath).journalPath)).toBe(false);
    expect(existsSync(lockInfoPath(statePath))).toBe(false);
    const rest = COUNT + DEPENDENTS - listed.size;

    const plan = await runCommand(planCommand, ["-no-color"], dir, { home });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain(`Plan: ${rest} to add, 0 to change, 0 to destroy.`);
    const planned = new Set([...plan.stdout.matchAll(/^ {2}# (\S+) will be created$/gm)].map((m) => m[1] as string));
    expect(planned.size).toBe(rest);
    for (const a of allAddrs()) expect(planned.has(a) !== listed.has(a), a).toBe(true);

    // The next apply creates only what is missing.
    const apply = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir, { home });
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain(`Apply complete! Resources: ${rest} added, 0 changed, 0 destroyed.`);
    const final = await runCommand(stateCommand, ["list"], dir, { home });
    expect(final.stdout.split("\n").filter((l) => l !== "").sort()).toEqual(allAddrs().sort());
  }, 300_000);
});
