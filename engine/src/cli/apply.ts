// `terrace apply [PLANFILE]` and `terrace destroy`: OpenTofu's command/apply.go with the local
// backend (backend_apply.go). Without a plan file: plan, show it, ask "Do you want to perform
// these actions?" (only "yes" approves; -auto-approve skips the question), apply. With a saved
// plan: apply it as saved, configuration included. State goes to terraform.tfstate while the
// apply runs (periodically) and at the end, also after errors, so no created object is lost.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Loader, MemoryFS, RootModuleInputs, loadConfigWithRootInputs, type Config } from "../configs/index.js";
import type { UnparsedVariableValue } from "../configs/inputvars/index.js";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import { changesEmpty, readPlanFile, type Plan } from "../plans/index.js";
import { DEFAULT_STATE_FILENAME, LocalStore, lockErrorDiagnostic, newLockInfo, unlockErrorDiagnostic, type State } from "../states/index.js";
import { parseFlags } from "./args.js";
import type { Command, CommandIO } from "./io.js";
import { Prompter, RUN_FLAGS, TOFU_VERSION, UIHooks, newContext, printOutputs, runFlags, runPlan, type RunFlags } from "./plan.js";
import { View } from "./view.js";

const APPLY_HELP = `Usage: terrace [global options] apply [options] [PLAN]

  Creates or updates infrastructure according to OpenTofu configuration
  files in the current directory.

  By default, OpenTofu will generate a new plan and present it for your
  approval before taking any action. You can optionally provide a plan
  file created by a previous call to "terrace plan", in which case
  OpenTofu will take the actions described in that plan without any
  confirmation prompt.

Options:

  -auto-approve          Skip interactive approval of plan before applying.

  -destroy               Destroy all objects instead (same as "terrace destroy").

  -input=true            Ask for input for variables if not directly set.

  -no-color              If specified, output won't contain any color.

  -parallelism=n         Limit the number of parallel resource operations.
                         Defaults to 10.

  -refresh=false         Skip checking for changes to remote objects.

  -var 'foo=bar'         Set a value for one of the input variables.

  -var-file=filename     Load variable values from the given file.
`;

/** How often state is written during an apply (OpenTofu's default persist interval). */
const PERSIST_INTERVAL_MS = 20_000;

/** The configuration saved in a plan file, loaded as it was when planned. */
export async function configFromPlanFile(
  contents: ReturnType<typeof readPlanFile>,
  workingDir: string,
): Promise<{ config: Config | undefined; diagnostics: Diagnostic[]; plan: Plan | undefined }> {
  if (!contents.ok) return { config: undefined, diagnostics: contents.diagnostics, plan: undefined };
  const files: Record<string, Uint8Array> = {};
  for (const m of contents.contents.config.modules) for (const [name, data] of m.files) files[m.dir === "." || m.dir === "" ? name : `${m.dir}/${name}`] = data;
  const plan = contents.contents.plan;
  const vals = new Map<string, UnparsedVariableValue>();
  for (const [name, value] of plan.variableValues) vals.set(name, { kind: "value", value, source: "input" });
  const loader = new Loader({ fs: new MemoryFS(files), workingDir: "." });
  const r = await loadConfigWithRootInputs(loader, ".", new RootModuleInputs(vals), "default", { cwd: workingDir });
  return { config: r.config, diagnostics: [...contents.diagnostics, ...r.diagnostics], plan };
}

async function approve(view: View, destroy: boolean): Promise<boolean> {
  const prompter = new Prompter(view);
  const answer = destroy
    ? await prompter.ask(
        "Do you really want to destroy all resources?",
        "OpenTofu will destroy all your managed infrastructure, as shown above.\nThere is no undo. Only 'yes' will be accepted to confirm.",
      )
    : await prompter.ask("Do you want to perform these actions?", "OpenTofu will perform the actions described above.\nOnly 'yes' will be accepted to approve.");
  return answer === "yes";
}

async function persist(store: LocalStore, state: State): Promise<Diagnostic[]> {
  store.write(state);
  return store.persist();
}

async function applyCommandImpl(args: readonly string[], io: CommandIO, destroyCmd: boolean): Promise<number> {
  const p = parseFlags(args, RUN_FLAGS);
  const early = new View(io, !args.includes("-no-color"));
  const name = destroyCmd ? "destroy" : "apply";
  if (typeof p === "string") {
    early.diagnostics([errorDiag("Failed to parse command-line flags", p)]);
    io.stderr.write(`\nFor more help on using this command, run:\n  terrace ${name} -help\n`);
    return 1;
  }
  if (p.bools.get("help")) {
    io.stdout.write(APPLY_HELP);
    return 0;
  }
  const parsed = runFlags(p);
  if (typeof parsed === "string") {
    early.diagnostics([errorDiag("Invalid parallelism", parsed)]);
    return 1;
  }
  const flags: RunFlags = destroyCmd ? { ...parsed, destroy: true } : parsed;
  const view = new View(io, flags.color);
  const workingDir = path.resolve(io.cwd);
  if (flags.positional.length > 1) {
    view.diagnostics([errorDiag("Too many command line arguments", "Expected at most one positional argument.")]);
    return 1;
  }

  let plan: Plan;
  let config: Config;
  const planPath = flags.positional[0];
  if (planPath !== undefined) {
    if (destroyCmd || flags.destroy) {
      view.diagnostics([errorDiag("Destroy can't be called with a plan file", "If this plan was created using plan -destroy, apply it using:\n  terrace apply \"" + planPath + "\"")]);
      return 1;
    }
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(readFileSync(path.resolve(workingDir, planPath)));
    } catch (e) {
      view.diagnostics([errorDiag("Failed to load plan file", `Could not read ${planPath}: ${e instanceof Error ? e.message : String(e)}`)]);
      return 1;
    }
    const loaded = await configFromPlanFile(readPlanFile(bytes), workingDir);
    if (hasErrors(loaded.diagnostics) || !loaded.config || !loaded.plan) {
      view.diagnostics(loaded.diagnostics);
      return 1;
    }
    plan = loaded.plan;
    config = loaded.config;
  } else {
    const r = await runPlan(io, view, flags, workingDir);
    if (r.code !== 0 || !r.result || !r.loaded) return r.code === 0 ? 1 : r.code;
    plan = r.result.plan;
    config = r.loaded.config;
    if (changesEmpty(plan.changes)) {
      // Nothing to do, but the refreshed state is still worth keeping.
      const store = new LocalStore(path.join(workingDir, DEFAULT_STATE_FILENAME), { terraformVersion: TOFU_VERSION });
      await store.refresh();
      const d = await persist(store, plan.priorState);
      view.diagnostics(d);
      view.println(`[reset][bold][green]\n${flags.destroy ? "Destroy" : "Apply"} complete! Resources: 0 added, 0 changed, 0 destroyed.`);
      printOutputs(view, plan.priorState);
      return hasErrors(d) ? 1 : 0;
    }
    if (!flags.autoApprove) {
      view.println("");
      if (!(await approve(view, flags.destroy))) {
        view.println(`${flags.destroy ? "Destroy" : "Apply"} cancelled.`);
        return 1;
      }
    } else {
      view.println("");
    }
  }

  const store = new LocalStore(path.join(workingDir, DEFAULT_STATE_FILENAME), { terraformVersion: TOFU_VERSION });
  const lock = await store.lock(newLockInfo("OperationTypeApply", { version: TOFU_VERSION }));
  if (!lock.ok) {
    view.diagnostics([lockErrorDiagnostic(lock.error)]);
    return 1;
  }
  const diagnostics: Diagnostic[] = [];
  try {
    diagnostics.push(...(await store.refresh()));
    const hooks = new UIHooks(view);
    const ctx = newContext(io, workingDir, flags, hooks);
    const r = await ctx.apply(plan, config, { persist: (s) => persist(store, s), persistIntervalMs: PERSIST_INTERVAL_MS });
    diagnostics.push(...r.diagnostics);
    // Written even after errors: whatever was created is in this state.
    diagnostics.push(...(await persist(store, r.state)));
    view.diagnostics(diagnostics);
    if (hasErrors(diagnostics)) return 1;
    if (plan.uiMode === "destroy") view.println(`[reset][bold][green]\nDestroy complete! Resources: ${hooks.removed} destroyed.`);
    else view.println(`[reset][bold][green]\nApply complete! Resources: ${hooks.added} added, ${hooks.changed} changed, ${hooks.removed} destroyed.`);
    printOutputs(view, r.state);
    return 0;
  } finally {
    const u = await store.unlock(lock.id);
    if (!u.ok) view.diagnostics([unlockErrorDiagnostic(u.error)]);
  }
}

export const applyCommand: Command = (args, io) => applyCommandImpl(args, io, false);
export const destroyCommand: Command = (args, io) => applyCommandImpl(args, io, true);
