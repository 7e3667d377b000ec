// The CLI-level conformance cases of ../shared/conformance/opentofu that static evaluation needs
// end to end: 033 (`init` with `module.source = var.src`: the prompt, -input=false, -var) and 034
// (static variables across every command, OpenTofu's e2etest TestStaticPlanVariables). Each
// invocation runs `terrace` in process through the same dispatch as the executable (cli/run.ts),
// against a fresh copy of the case's fixture, with no terminal: standard input is a pipe (empty
// unless the case answers a prompt), as in tofu's e2e tests.
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import type { CommandIO } from "./io.js";
import { runCLI } from "./run.js";

export interface CLIResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A throwaway working directory holding a copy of `fixture`, and an empty HOME beside it. */
export class Workdir {
  readonly root: string;
  readonly dir: string;
  readonly home: string;

  constructor(fixture: string) {
    this.root = mkdtempSync(path.join(tmpdir(), "terrace-conformance-"));
    this.dir = path.join(this.root, "work");
    this.home = path.join(this.root, "home");
    cpSync(fixture, this.dir, { recursive: true });
    mkdirSync(this.home);
    makeWritable(this.dir);
  }

  async run(args: readonly string[], stdin = ""): Promise<CLIResult> {
    let stdout = "";
    let stderr = "";
    const io: CommandIO = {
      stdin: Readable.from(stdin === "" ? [] : [stdin]),
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      cwd: this.dir,
      env: { HOME: this.home, PATH: process.env["PATH"] },
    };
    let code: number;
    try {
      code = await runCLI(args, io);
    } catch (e) {
      stderr += `terrace: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`;
      code = 1;
    }
    return { code, stdout, stderr };
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** The case fixtures are read-only; the copies must not be (commands write beside them). */
function makeWritable(p: string): void {
  const st = statSync(p);
  chmodSync(p, st.isDirectory() ? 0o755 : 0o644);
  if (st.isDirectory()) for (const name of readdirSync(p)) makeWritable(path.join(p, name));
}

/** tofu's e2etest SanitizeStderr: the rule characters and line breaks of wrapped diagnostics go. */
export function sanitizeStderr(s: string): string {
  return s.replace(/\u001b\[[0-9;]*[A-Za-z]/g, "").replaceAll("│", "").replaceAll("\n", "");
}

function show(r: CLIResult): string {
  return `exit ${r.code}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;
}

// ---------------------------------------------------------------------------------------------
// Case 033: init with a module source from a variable

async function case033(caseDir: string): Promise<string[]> {
  const failures: string[] = [];
  const within = async (fixture: string, body: (w: Workdir) => Promise<void>) => {
    const w = new Workdir(path.join(caseDir, fixture));
    try {
      await body(w);
    } finally {
      w.remove();
    }
  };

  await within("single", async (w) => {
    const r = await w.run(["init"], "./mod\n");
    if (r.code !== 0) failures.push(`missing: want exit 0 after answering the prompt for var.src\n${show(r)}`);
    else if (!r.stdout.includes("var.src")) failures.push(`missing: no prompt for var.src\n${show(r)}`);
  });

  await within("multiple", async (w) => {
    const r = await w.run(["init"], "./mod\n");
    const prompts = r.stdout.split("Enter a value:").length - 1;
    if (r.code !== 0) failures.push(`missing-twice: want exit 0 with one answer for two module calls\n${show(r)}`);
    else if (prompts !== 1) failures.push(`missing-twice: var.src asked for ${prompts} times, want once\n${show(r)}`);
  });

  await within("single", async (w) => {
    const r = await w.run(["init", "-input=false", "-no-color"]);
    // The two diagnostics in order, with their subjects: the variable block (no detail), then the
    // module's source argument.
    const want = [
      "Error: Failed to request input from user for variable var.src\n\n  on main.tf line 1:\n   1: variable \"src\" {\n\n",
      "Error: Unable to compute static value\n\n  on main.tf line 6, in module \"mod\":\n   6: \tsource = var.src\n\nmodule.mod.source depends on var.src which is not available\n",
    ];
    const at = want.map((t) => r.stderr.indexOf(t));
    if (r.code !== 1) failures.push(`no-input: want exit 1\n${show(r)}`);
    else if (at.some((i) => i < 0) || (at[0] as number) > (at[1] as number)) {
      failures.push(`no-input: want these diagnostics in this order:\n${want.join("")}\n${show(r)}`);
    }
  });

  await within("single", async (w) => {
    const r = await w.run(["init", "-var", "src=./mod"]);
    if (r.code !== 0) failures.push(`provided: want exit 0 with -var src=./mod\n${show(r)}`);
  });
  return failures;
}

// ---------------------------------------------------------------------------------------------
// Case 034: static variables across every command

/** Success (with a text standard output must contain), or failure with a text on standard error. */
type Outcome = { readonly ok: true; readonly stdout?: string } | { readonly ok: false; readonly stderr: string };

interface Step {
  readonly args: readonly string[];
  readonly want: Outcome;
}

const STATE_PATH = "custom.tfstate";
const STATE_VAR = `-var=state_path=${STATE_PATH}`;
const MOD_VAR = "-var=src=./mod";
const PLANFILE = "static.plan";
const MOD_ERR = "module.mod.source depends on var.src which is not available";
const BACKEND_ERR = "backend.local depends on var.state_path which is not available";

const S = (stdout?: string): Outcome => (stdout === undefined ? { ok: true } : { ok: true, stdout });
const F = (stderr: string): Outcome => ({ ok: false, stderr });

/** TestStaticPlanVariables' invocations, in its order (the commands' state carries over). */
export const STATIC_PLAN_STEPS: readonly Step[] = [
  { args: ["init"], want: F(MOD_ERR) },
  { args: ["init", STATE_VAR, MOD_VAR], want: S() },
  // `get` downgrades configuration errors to warnings, which go to standard output.
  { args: ["get"], want: S(MOD_ERR) },
  { args: ["get", STATE_VAR, MOD_VAR], want: S() },
  { args: ["validate"], want: F(MOD_ERR) },
  { args: ["validate", STATE_VAR, MOD_VAR], want: S() },
  { args: ["providers"], want: F(MOD_ERR) },
  { args: ["providers", STATE_VAR, MOD_VAR], want: S() },
  { args: ["providers", "lock"], want: F(MOD_ERR) },
  { args: ["providers", "lock", STATE_VAR, MOD_VAR], want: S() },
  { args: ["providers", "mirror", "./tempproviders"], want: F(MOD_ERR) },
  { args: ["providers", "mirror", STATE_VAR, MOD_VAR, "./tempproviders"], want: F("Could not scan the output directory to get package metadata for the JSON") },
  { args: ["providers", "schema", "-json"], want: F(BACKEND_ERR) },
  { args: ["providers", "schema", "-json", STATE_VAR, MOD_VAR], want: S() },
  { args: ["console"], want: F(BACKEND_ERR) },
  { args: ["console", STATE_VAR, MOD_VAR], want: S() },
  { args: ["graph"], want: F(BACKEND_ERR) },
  { args: ["graph", STATE_VAR, MOD_VAR], want: S() },
  { args: ["plan", STATE_VAR, MOD_VAR, `-out=${PLANFILE}`], want: S() },
  // A saved plan carries the static variable values: no -var needed.
  { args: ["show", PLANFILE], want: S() },
  { args: ["graph", `-plan=${PLANFILE}`], want: S() },
  { args: ["apply", PLANFILE], want: S() },
  { args: ["show", STATE_PATH], want: F(MOD_ERR) },
  { args: ["show", STATE_VAR, MOD_VAR, STATE_PATH], want: S('out = "placeholder"') },
  { args: ["force-unlock", "ident"], want: F(BACKEND_ERR) },
  { args: ["force-unlock", STATE_VAR, MOD_VAR, "ident"], want: F("Local state cannot be unlocked by another process") },
  { args: ["output"], want: F(BACKEND_ERR) },
  { args: ["output", STATE_VAR, MOD_VAR], want: S('out = "placeholder"') },
  { args: ["refresh"], want: F(BACKEND_ERR) },
  { args: ["refresh", STATE_VAR, MOD_VAR], want: S("There are currently no remote objects tracked in the state") },
  { args: ["import", "resource.addr", "id"], want: F(MOD_ERR) },
  { args: ["import", STATE_VAR, MOD_VAR, "resource.addr", "id"], want: F("Before importing this resource, please create its configuration in the root module.") },
  { args: ["taint", "resource.addr"], want: F(MOD_ERR) },
  { args: ["taint", STATE_VAR, MOD_VAR, "resource.addr"], want: F("There is no resource instance in the state with the address resource.addr.") },
  { args: ["untaint", "resource.addr"], want: F(BACKEND_ERR) },
  { args: ["untaint", STATE_VAR, MOD_VAR, "resource.addr"], want: F("There is no resource instance in the state with the address resource.addr.") },
  { args: ["state", "list"], want: F(BACKEND_ERR) },
  { args: ["state", "list", STATE_VAR, MOD_VAR], want: S() },
  { args: ["state", "mv", "foo.bar", "foo.baz"], want: F(MOD_ERR) },
  { args: ["state", "mv", STATE_VAR, MOD_VAR, "foo.bar", "foo.baz"], want: F("Cannot move foo.bar: does not match anything in the current state.") },
  { args: ["state", "pull"], want: F(MOD_ERR) },
  { args: ["state", "pull", STATE_VAR, MOD_VAR], want: S('"outputs":{"out":{"value":"placeholder","type":"string"}}') },
  { args: ["state", "push", STATE_PATH], want: F(MOD_ERR) },
  { args: ["state", "push", STATE_VAR, MOD_VAR, STATE_PATH], want: S() },
  { args: ["state", "replace-provider", "foo", "bar"], want: F(MOD_ERR) },
  { args: ["state", "replace-provider", STATE_VAR, MOD_VAR, "foo", "bar"], want: S("No matching resources found.") },
  { args: ["state", "rm", "foo.bar"], want: F(MOD_ERR) },
  { args: ["state", "rm", STATE_VAR, MOD_VAR, "foo.bar"], want: F("No matching objects found.") },
  { args: ["state", "show", "out"], want: F(BACKEND_ERR) },
  { args: ["state", "show", STATE_VAR, MOD_VAR, "invalid.resource"], want: F("No instance found for the given address") },
  { args: ["workspace", "list"], want: F(BACKEND_ERR) },
  { args: ["workspace", "list", STATE_VAR, MOD_VAR], want: S("default") },
  { args: ["workspace", "new", "foo"], want: F(BACKEND_ERR) },
  { args: ["workspace", "new", STATE_VAR, MOD_VAR, "foo"], want: S("foo") },
  { args: ["workspace", "select", "default"], want: F(BACKEND_ERR) },
  { args: ["workspace", "select", STATE_VAR, MOD_VAR, "default"], want: S("default") },
  { args: ["workspace", "delete", "foo"], want: F(BACKEND_ERR) },
  { args: ["workspace", "delete", STATE_VAR, MOD_VAR, "foo"], want: S("foo") },
  { args: ["test"], want: F(MOD_ERR) },
  { args: ["test", STATE_VAR, MOD_VAR], want: S("Success!") },
  { args: ["destroy", "-auto-approve"], want: F(BACKEND_ERR) },
  { args: ["destroy", STATE_VAR, MOD_VAR, "-auto-approve"], want: S("You can apply this plan to save these new output values") },
];

/** Why a result does not meet a step's expectation; undefined when it does. */
export function checkStep(step: Step, r: CLIResult): string | undefined {
  const cmd = `terrace ${step.args.join(" ")}`;
  const want = step.want;
  if (!want.ok) {
    if (r.code === 0) return `${cmd}: want failure, got success\n${show(r)}`;
    if (!sanitizeStderr(r.stderr).includes(want.stderr)) return `${cmd}: want ${JSON.stringify(want.stderr)} on stderr\n${show(r)}`;
    return undefined;
  }
  if (r.code !== 0) return `${cmd}: want success, got exit ${r.code}\n${show(r)}`;
  if (want.stdout !== undefined && !r.stdout.includes(want.stdout)) return `${cmd}: want ${JSON.stringify(want.stdout)} on stdout\n${show(r)}`;
  return undefined;
}

async function case034(caseDir: string): Promise<string[]> {
  const failures: string[] = [];
  for (const fixture of ["static_plan_variables", "static_plan_typed_variables"]) {
    const w = new Workdir(path.join(caseDir, fixture));
    try {
      for (const step of STATIC_PLAN_STEPS) {
        const why = checkStep(step, await w.run(step.args));
        if (why !== undefined) failures.push(`${fixture}: ${why}`);
      }
    } finally {
      w.remove();
    }
  }
  return failures;
}

const CASES: Record<string, (caseDir: string) => Promise<string[]>> = { "033": case033, "034": case034 };

/** Whether this harness runs the case (by its number). */
export function isCLICase(caseDir: string): boolean {
  return path.basename(caseDir).slice(0, 3) in CASES;
}

/** The harness for scripts/conformance.mjs: every invocation must behave as the case says. */
export async function runCLICase(caseDir: string): Promise<{ ok: boolean; message: string }> {
  const run = CASES[path.basename(caseDir).slice(0, 3)];
  if (!run) return { ok: false, message: "not a CLI case" };
  const failures = await run(caseDir);
  return failures.length === 0 ? { ok: true, message: "every invocation behaved as expected" } : { ok: false, message: failures.join("\n\n") };
}
