// Runs a scenario with the real `terraform` in a temporary directory and observes each step as
// observation.ts describes: `plan -json -out` (diagnostics from the JSON log), `show -json` of the
// saved plan (actions, reasons, previous addresses, imports), `apply -json` of that plan, and the
// state file. Used only by record.ts: the answers are kept as test data.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseActionReasonJSON, parseActionStrings } from "../../plans/index.js";
import { deposedAddr, maskIds, sortDiags, stateFromFileText, type ChangeObs, type Diag, type PlanObs, type StepObs } from "./observation.js";
import { isEditStep, type RunStep, type Scenario } from "./scenario.js";

const env = {
  ...process.env,
  // A missing CLI configuration: no plugin cache or credentials from the machine leak in.
  TF_CLI_CONFIG_FILE: "/nonexistent/terraformrc",
  TF_IN_AUTOMATION: "1",
  CHECKPOINT_DISABLE: "1",
};

interface Ran {
  status: number;
  stdout: string;
  stderr: string;
}

function tf(dir: string, args: string[]): Ran {
  const r = spawnSync("terraform", args, { cwd: dir, env, encoding: "utf8" });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function mustTf(dir: string, args: string[]): string {
  const r = tf(dir, args);
  if (r.status !== 0) throw new Error(`terraform ${args.join(" ")} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

export function terraformVersion(): string | undefined {
  const r = spawnSync("terraform", ["version", "-json"], { encoding: "utf8", env });
  if (r.status !== 0) return undefined;
  try {
    return (JSON.parse(r.stdout) as { terraform_version: string }).terraform_version;
  } catch {
    return undefined;
  }
}

/** Errors and warnings from a `-json` UI log. */
function diagnosticsOf(log: string): { errors: Diag[]; warnings: Diag[] } {
  const errors: Diag[] = [];
  const warnings: Diag[] = [];
  for (const line of log.split("\n")) {
    if (!line.startsWith("{")) continue;
    const m = JSON.parse(line) as { type?: string; diagnostic?: { severity: string; summary: string; detail?: string } };
    if (m.type !== "diagnostic" || !m.diagnostic) continue;
    const d = { summary: m.diagnostic.summary, detail: m.diagnostic.detail ?? "" };
    (m.diagnostic.severity === "error" ? errors : warnings).push(d);
  }
  return { errors: sortDiags(errors), warnings: sortDiags(warnings) };
}

interface PlanJSON {
  resource_changes?: Array<{
    address: string;
    deposed?: string;
    previous_address?: string;
    action_reason?: string;
    change: { actions: string[]; importing?: { id?: string } };
  }>;
  output_changes?: Record<string, { actions: string[] }>;
}

function planChanges(doc: PlanJSON): Pick<PlanObs, "changes" | "outputs"> {
  const changes: Record<string, ChangeObs> = {};
  for (const rc of doc.resource_changes ?? []) {
    const addr = rc.deposed ? deposedAddr(changes, rc.address) : rc.address;
    const reason = rc.action_reason ? parseActionReasonJSON(rc.action_reason) : undefined;
    changes[addr] = {
      action: parseActionStrings(rc.change.actions) ?? rc.change.actions.join(","),
      ...(rc.action_reason ? { reason: reason ?? rc.action_reason } : {}),
      ...(rc.previous_address && rc.previous_address !== rc.address ? { prev: rc.previous_address } : {}),
      ...(rc.change.importing?.id !== undefined ? { importing: rc.change.importing.id } : {}),
    };
  }
  const outputs: Record<string, string> = {};
  for (const [name, oc] of Object.entries(doc.output_changes ?? {})) outputs[name] = parseActionStrings(oc.actions) ?? oc.actions.join(",");
  return { changes, outputs };
}

function planArgs(step: RunStep): string[] {
  const args = ["plan", "-input=false", "-no-color", "-json", "-out=p.tfplan"];
  if (step.mode === "destroy") args.push("-destroy");
  if (step.mode === "refresh-only") args.push("-refresh-only");
  if (step.refresh === false) args.push("-refresh=false");
  for (const r of step.replace ?? []) args.push(`-replace=${r}`);
  for (const t of step.targets ?? []) args.push(`-target=${t}`);
  for (const [k, v] of Object.entries(step.vars ?? {})) args.push(`-var=${k}=${v}`);
  return args;
}

function readState(dir: string): string | undefined {
  const f = join(dir, "terraform.tfstate");
  return existsSync(f) ? readFileSync(f, "utf8") : undefined;
}

/** Every step of `s` run with terraform, observed. */
export function recordScenario(s: Scenario): StepObs[] {
  const dir = mkdtempSync(join(tmpdir(), `terrace-diff-${s.name}-`));
  const written: string[] = [];
  const out: StepObs[] = [];
  try {
    for (const step of s.steps) {
      if (isEditStep(step)) {
        mustTf(dir, step.edit === "rm" ? ["state", "rm", "-no-color", step.addr] : [step.edit, "-no-color", step.addr]);
        out.push({ state: stateFromFileText(readState(dir)) });
        continue;
      }
      for (const f of written.splice(0)) rmSync(join(dir, f), { force: true });
      for (const [f, text] of Object.entries(step.files)) {
        mkdirSync(dirname(join(dir, f)), { recursive: true });
        writeFileSync(join(dir, f), text);
        written.push(f);
      }
      mustTf(dir, ["init", "-input=false", "-no-color"]);
      rmSync(join(dir, "p.tfplan"), { force: true });
      const planned = tf(dir, planArgs(step));
      const planDiags = diagnosticsOf(planned.stdout);
      if (planned.status !== 0 || !existsSync(join(dir, "p.tfplan"))) {
        if (planDiags.errors.length === 0) throw new Error(`terraform plan failed without diagnostics:\n${planned.stdout}\n${planned.stderr}`);
        out.push({ plan: { ...planDiags, changes: {}, outputs: {} }, state: stateFromFileText(readState(dir)) });
        continue;
      }
      const plan = maskIds({ ...planDiags, ...planChanges(JSON.parse(mustTf(dir, ["show", "-json", "p.tfplan"])) as PlanJSON) });
      if (step.planOnly) {
        out.push({ plan, state: stateFromFileText(readState(dir)) });
        continue;
      }
      const applied = tf(dir, ["apply", "-input=false", "-no-color", "-json", "p.tfplan"]);
      const apply = maskIds(diagnosticsOf(applied.stdout));
      if (applied.status !== 0 && apply.errors.length === 0) throw new Error(`terraform apply failed without diagnostics:\n${applied.stdout}\n${applied.stderr}`);
      out.push({ plan, apply, state: stateFromFileText(readState(dir)) });
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
