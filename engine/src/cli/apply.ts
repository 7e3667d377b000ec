// `terrace apply [PLANFILE]` and `terrace destroy`: OpenTofu's command/apply.go with the local
// backend (backend_apply.go). Without a plan file: plan, show it, ask "Do you want to perform
// these actions?" (only "yes" approves; -auto-approve skips the question), apply. With a saved
// plan: apply it as saved, configuration included. Each change is journaled beside
// terraform.tfstate as it happens and the state is written at the end, also after errors.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Config } from "../configs/index.js";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import type { Plan } from "../plans/index.js";
import { NO_ENCRYPTION, type Encryption } from "../encryption/index.js";
import { LocalStore, persistOrSaveErrored, type State, type StateEncryption, type StateStore } from "../states/index.js";
import type { ApplyOptions } from "../core/index.js";
import { currentWorkspace, openStateStore } from "./workspace.js";
import { backendForPlan } from "./backend_config.js";
import { Meta } from "./meta.js";
import type { Command, CommandIO } from "./io.js";
import { devOverrideRuntimeWarnings } from "./devoverrides.js";
import { configFromPlanFile, readSavedPlan } from "./saved_plan.js";
import { verifySavedPlanLocks } from "./provider_requirements.js";
import { Prompter, lockState, newContext, operationView, readRunFlags, runPlan } from "./plan.js";
import { fromCheckBlock } from "./diagsort.js";
import { goPathError } from "../host/errno.js";
import { APPLY_FLAGS, VIEW_OPTIONS_HELP, type RunFlags } from "./runflags.js";
import { localBackendOptions } from "./statecmd.js";
import type { OperationView, View } from "./view.js";

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

  -compact-warnings      If OpenTofu produces any warnings that are not
                         accompanied by errors, show them in a more compact
                         form that includes only the summary messages.

${VIEW_OPTIONS_HELP}
  -destroy               Destroy all objects instead (same as "terrace destroy").

  -input=true            Ask for input for variables if not directly set.

  -json-into=file        Write the machine-readable messages -json would print
                         into the file, keeping this output on the terminal.

  -no-color              If specified, output won't contain any color.

  -parallelism=n         Limit the number of parallel resource operations.
                         Defaults to 10.

  -refresh=false         Skip checking for changes to remote objects.

  -refresh-only          Update the state to match remote objects, proposing no
                         other change.

  -state=path            Path to read and save state (unless state-out
                         is specified). Defaults to "terraform.tfstate".
                         Legacy option for the local backend only.

  -state-out=path        Path to write state to that is different than
                         "-state". This can be used to preserve the old
                         state.

  -backup=path           Path to backup the existing state file before
                         modifying. Defaults to the "-state-out" path with
                         ".backup" extension. Set to "-" to disable backup.

  -show-sensitive        Show sensitive values in the plan, the outputs and
                         provisioner output instead of hiding them.

  -suppress-forget-errors
                         Suppress the error that occurs when a destroy
                         operation completes successfully but leaves
                         forgotten instances behind.

  -replace=resource      Force replacement of a resource instance (repeatable).

  -target=resource       Apply only to the given object and what it depends on
                         (repeatable).

  -target-file=filename  As -target, with the addresses read from a file, one
                         per line ("#" starts a comment line).

  -exclude=resource      Apply to everything but the given object and what
                         depends on it (repeatable).

  -exclude-file=filename As -exclude, with the addresses read from a file.

  -var 'foo=bar'         Set a value for one of the input variables.

  -var-file=filename     Load variable values from the given file.
`;

/**
 * The approval question (backend_apply.go): the answer typed, or undefined when standard input
 * ended first, which tofu reports as an error rather than as a "no".
 */
async function approve(view: View, destroy: boolean, refreshOnly: boolean): Promise<string | undefined> {
  const prompter = new Prompter(view);
  if (refreshOnly) {
    return prompter.ask(
      "Would you like to update the OpenTofu state to reflect these detected changes?",
      "OpenTofu will write these changes to the state without modifying any real infrastructure.\nThere is no undo. Only 'yes' will be accepted to confirm.",
    );
  }
  return destroy
    ? prompter.ask(
        "Do you really want to destroy all resources?",
        "OpenTofu will destroy all your managed infrastructure, as shown above.\nThere is no undo. Only 'yes' will be accepted to confirm.",
      )
    : prompter.ask("Do you want to perform these actions?", "OpenTofu will perform the actions described above.\nOnly 'yes' will be accepted to approve.");
}

/**
 * ParseApplyDestroy: `terrace destroy` is always in destroy mode, so neither mode option is
 * valid on it.
 */
function destroyModeDiagnostics(mode: RunFlags["mode"]): Diagnostic[] {
  switch (mode) {
    case "normal":
      return [];
    case "destroy":
      return [errorDiag("Invalid mode option", 'The -destroy option is not valid for "terrace destroy", because this command always runs in destroy mode.')];
    case "refresh-only":
      return [errorDiag("Invalid mode option", 'The -refresh-only option is not valid for "terrace destroy".')];
    default: {
      const never: never = mode;
      return never;
    }
  }
}

/**
 * ApplyCommand.LoadPlanFile: the saved plan's bytes, or the error tofu gives for a path that is
 * missing, a directory or unreadable (worded with the path as given).
 */
function readPlanFileBytes(workingDir: string, planPath: string): { bytes: Uint8Array } | { diagnostics: Diagnostic[] } {
  const abs = path.resolve(workingDir, planPath);
  const failed = (detail: string) => ({ diagnostics: [errorDiag(`Failed to load ${JSON.stringify(planPath)} as a plan file`, `Error: ${detail}`)] });
  let isDir: boolean;
  try {
    isDir = statSync(abs).isDirectory();
  } catch (e) {
    return failed(goPathError(e, "stat", planPath));
  }
  if (isDir) {
    return { diagnostics: [errorDiag("Failed to load plan", `Failed to load ${JSON.stringify(planPath)} as a plan file. Did you mean to use the -chdir flag?`)] };
  }
  try {
    return { bytes: new Uint8Array(readFileSync(abs)) };
  } catch (e) {
    // planfile.OpenWrapped tried the file as a local plan and as a cloud plan; both reads failed.
    const why = goPathError(e, "open", planPath);
    return failed(`couldn't load the provided path as either a local plan file (${why}) or a saved cloud plan (${why})`);
  }
}

async function persist(store: StateStore, state: State): Promise<Diagnostic[]> {
  store.write(state);
  return store.persist();
}

const PERSIST_INTERVAL_ENV = "TF_STATE_PERSIST_INTERVAL";
/** OpenTofu's default persist interval, in seconds, and the least TF_STATE_PERSIST_INTERVAL may set. */
const DEFAULT_PERSIST_INTERVAL_S = 20;

/**
 * How often an apply writes the whole state: TF_STATE_PERSIST_INTERVAL seconds (Go's
 * strconv.Atoi syntax), at least the default 20, with OpenTofu's errors otherwise.
 */
export function persistIntervalMs(env: CommandIO["env"]): number | Diagnostic {
  const raw = env[PERSIST_INTERVAL_ENV];
  if (raw === undefined) return DEFAULT_PERSIST_INTERVAL_S * 1000;
  const n = /^[+-]?[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n)) {
    return errorDiag(
      "Invalid environment variable value",
      `The environment variable ${JSON.stringify(PERSIST_INTERVAL_ENV)} is expected to be a valid integer but got ${JSON.stringify(raw)} which cannot be converted.`,
    );
  }
  if (n < DEFAULT_PERSIST_INTERVAL_S) {
    return errorDiag(
      "Invalid environment variable value",
      `The value for the environment variable ${JSON.stringify(PERSIST_INTERVAL_ENV)} cannot be smaller than ${DEFAULT_PERSIST_INTERVAL_S} but got ${n}.`,
    );
  }
  return n * 1000;
}

/**
 * The state store of the backend a saved plan was made with (Meta.BackendForLocalPlan), so that
 * applying it needs none of the variables its configuration was initialised with. A plan that
 * records no backend uses the configured one.
 */
async function openPlanStore(io: CommandIO, ov: OperationView, plan: Plan, flags: RunFlags, encryption: StateEncryption): Promise<StateStore | undefined> {
  const b = plan.backend ? await backendForPlan(plan.backend, io) : await new Meta(io, ov.view, { vars: flags.vars, input: flags.input }).backend();
  if (!b.backend) {
    ov.diagnostics(b.diagnostics);
    return undefined;
  }
  const o = openStateStore(io, b.backend, { ...localBackendOptions(b.backend, flags.state), encryption });
  if (!o.opened || hasErrors(o.diagnostics)) {
    ov.diagnostics(o.diagnostics);
    return undefined;
  }
  return o.opened.store;
}

async function applyCommandImpl(args: readonly string[], io: CommandIO, destroyCmd: boolean): Promise<number> {
  const name = destroyCmd ? "destroy" : "apply";
  const parsed = readRunFlags(args, io, APPLY_FLAGS, name, APPLY_HELP, { max: 1, detail: "Expected at most one positional argument." });
  if (typeof parsed === "number") return parsed;
  const flags: RunFlags = destroyCmd ? { ...parsed, destroy: true, mode: "destroy" } : parsed;
  const ov = operationView(io, flags);
  const view = ov.view;
  const workingDir = path.resolve(io.cwd);
  const flagDiags = [...flags.diagnostics];
  // The JSON view cannot ask for approval, and overriding -auto-approve would be dangerous.
  if (flags.json && flags.positional.length === 0 && !flags.autoApprove) {
    flagDiags.push(
      errorDiag(
        "Plan file or auto-approve required",
        "OpenTofu cannot ask for interactive approval when -json is set. You can either apply a saved plan file, or enable the -auto-approve option.",
      ),
    );
  }
  if (destroyCmd) flagDiags.push(...destroyModeDiagnostics(parsed.mode));
  if (hasErrors(flagDiags)) {
    ov.diagnostics(flagDiags);
    ov.helpPrompt(name);
    return 1;
  }
  // Checked before anything is locked or planned (tofu checks it before planning, too).
  const intervalMs = persistIntervalMs(io.env);
  if (typeof intervalMs !== "number") {
    ov.diagnostics([intervalMs]);
    return 1;
  }

  let plan: Plan;
  let config: Config;
  let store: StateStore | undefined;
  let unlock: () => Promise<boolean>;
  /** The plan's warnings still to show, with the apply's own (-auto-approve). */
  let laterDiags: readonly Diagnostic[] = [];
  let encryption: Encryption = NO_ENCRYPTION;
  const planPath = flags.positional[0];
  if (planPath !== undefined) {
    if (destroyCmd || flags.destroy) {
      ov.diagnostics([errorDiag("Destroy can't be called with a plan file", "If this plan was created using plan -destroy, apply it using:\n  terrace apply \"" + planPath + "\"")]);
      return 1;
    }
    const file = readPlanFileBytes(workingDir, planPath);
    if ("diagnostics" in file) {
      ov.diagnostics(file.diagnostics);
      return 1;
    }
    const bytes = file.bytes;
    // Variables given to this command: the ephemeral ones the plan could not record, and checks
    // that the others agree with it.
    const planMeta = new Meta(io, ov.view, { vars: flags.vars, input: false });
    const given = planMeta.rootInputs();
    if (hasErrors(given.diagnostics)) {
      ov.diagnostics(given.diagnostics);
      return 1;
    }
    // The plan file and the state are decrypted with the working directory's encryption, as tofu does.
    const enc = await planMeta.encryption();
    if (!enc.encryption) {
      ov.diagnostics(enc.diagnostics);
      return 1;
    }
    encryption = enc.encryption;
    const loaded = await configFromPlanFile(await readSavedPlan(io, bytes, encryption.plan), workingDir, currentWorkspace(io).name, given.values);
    // Diagnostics quote the configuration as the plan saved it.
    if (loaded.sources) ov.view.addSources(loaded.sources);
    if (hasErrors(loaded.diagnostics) || !loaded.config || !loaded.plan) {
      ov.diagnostics(loaded.diagnostics);
      return 1;
    }
    if (loaded.plan.errored) {
      ov.diagnostics([errorDiag("Cannot apply incomplete plan", "OpenTofu encountered an error when generating this plan, so it cannot be applied.")]);
      return 1;
    }
    // The provider versions must be the ones the plan was made with.
    const locks = await verifySavedPlanLocks(loaded.config, loaded.dependencyLocks, io, workingDir);
    if (hasErrors(locks)) {
      ov.diagnostics(locks);
      return 1;
    }
    plan = loaded.plan;
    config = loaded.config;
    // Applying with dev overrides in effect may leave a state no released provider reads.
    const warnings = await devOverrideRuntimeWarnings(io.env, workingDir);
    if (warnings.length > 0) ov.diagnostics(warnings);
    store = await openPlanStore(io, ov, plan, flags, encryption.state);
    if (!store) return 1;
    const lock = await lockState(ov, store, flags, "OperationTypeApply");
    if (!lock) return 1;
    unlock = lock.unlock;
    const stale = await staleSavedPlan(store, loaded.priorStateMeta);
    if (stale.length > 0) {
      ov.diagnostics(stale);
      await unlock();
      return 1;
    }
    ov.plannedChanges(plan);
  } else {
    // The state stays locked from before the plan until the apply is done (localRun).
    const r = await runPlan(io, ov, flags, workingDir, { operation: "OperationTypeApply", keepLock: true, deferDiagnostics: true });
    if (r.code !== 0 || !r.result || !r.loaded) return r.code === 0 ? 1 : r.code;
    plan = r.result.plan;
    config = r.loaded.config;
    store = r.loaded.store;
    encryption = r.loaded.encryption;
    unlock = r.unlock;
    const planDiags = r.diagnostics ?? [];
    if (!plan.applyable) {
      // Nothing to do, but the refreshed state is still worth keeping. tofu applies the empty
      // plan, whose walk reports the checks again; here the plan's own reports stand for them.
      let code = 0;
      try {
        const d = await persist(store, plan.priorState);
        ov.diagnostics([...planDiags, ...d]);
        if (hasErrors(d)) code = 1;
        else {
          ov.resourceCount(destroyCmd);
          if (!destroyCmd) ov.outputs(plan.priorState);
        }
      } finally {
        if (!(await unlock())) code = 1;
      }
      return code;
    }
    if (!flags.autoApprove) {
      // Shown before the question, so they can be weighed in answering it.
      ov.diagnostics(planDiags);
      view.println("");
      const answer = await approve(view, flags.destroy, flags.mode === "refresh-only");
      if (answer === undefined) {
        ov.diagnostics([errorDiag("error asking for approval: EOF", "")]);
        await unlock();
        return 1;
      }
      if (answer !== "yes") {
        view.println(`${flags.destroy ? "Destroy" : "Apply"} cancelled.`);
        await unlock();
        return 1;
      }
    } else {
      // Shown after the apply, without the check blocks' reports: the apply checks them again.
      // No blank line before the apply's progress: tofu's renderer ends with the summary line,
      // and the blank line an interactive apply shows is the approval prompt's.
      laterDiags = planDiags.filter((d) => !fromCheckBlock(d));
    }
  }

  let code: number;
  let released = false;
  try {
    code = await applyPlan(io, ov, flags, store, plan, config, destroyCmd, encryption, laterDiags, intervalMs);
  } finally {
    released = await unlock();
  }
  return released ? code : 1;
}

/**
 * OpenTofu's check before applying a saved plan (backend/local's localRunForPlanFile): the state
 * must still be the snapshot the plan was made from. A plan made before any state existed has
 * no lineage, so only its serial is compared.
 */
async function staleSavedPlan(store: StateStore, planned: { lineage: string; serial: number } | undefined): Promise<Diagnostic[]> {
  const d = await store.refresh();
  if (hasErrors(d)) return d;
  const current = store.snapshotMeta();
  const prior = planned ?? { lineage: "", serial: 0 };
  const firstPlan = prior.lineage === "" && prior.serial === 0;
  if (!firstPlan && prior.lineage !== current.lineage) {
    return [errorDiag("Saved plan does not match the given state", "The given plan file can not be applied because it was created from a different state lineage.")];
  }
  if (prior.serial !== current.serial) {
    return [errorDiag("Saved plan is stale", "The given plan file can no longer be applied because the state was changed by another operation after the plan was created.")];
  }
  return [];
}

/** Applies `plan` to the locked `store` and reports the outcome (backend_apply's second half). */
async function applyPlan(
  io: CommandIO,
  ov: OperationView,
  flags: RunFlags,
  store: StateStore,
  plan: Plan,
  config: Config,
  destroyCmd: boolean,
  encryption: Encryption,
  planDiags: readonly Diagnostic[],
  intervalMs: number,
): Promise<number> {
  const workingDir = path.resolve(io.cwd);
  // Before the journal begins: a context that cannot be made must leave no journal behind.
  const c = newContext(io, workingDir, flags, ov.hooks, encryption);
  if (!c.ctx) {
    ov.diagnostics([...planDiags, ...c.diagnostics]);
    return 1;
  }
  const ctx = c.ctx;
  const diagnostics: Diagnostic[] = [...planDiags];
  diagnostics.push(...(await store.refresh()));
  // A local state journals every change as the walk makes it (states/README.md) and is written
  // whole every TF_STATE_PERSIST_INTERVAL (20 s); a remote one gets whole snapshots that often,
  // as OpenTofu's StateHook writes them.
  const suppressForgetErrors = flags.suppressForgetErrors;
  let applyOpts: ApplyOptions = { persist: (s) => persist(store, s), persistIntervalMs: intervalMs, suppressForgetErrors };
  // An encrypted local state keeps no journal (its records would be in the clear): it is
  // written whole at the interval instead.
  if (store instanceof LocalStore && !store.encrypted) {
    const journal = store.beginJournal(plan.priorState, { persistIntervalMs: intervalMs });
    diagnostics.push(...journal.diagnostics);
    applyOpts = { observer: journal.observer, suppressForgetErrors };
  }
  if (hasErrors(diagnostics)) {
    ov.diagnostics(diagnostics);
    return 1;
  }
  const r = await ctx.apply(plan, config, applyOpts).finally(() => ov.walkDone());
  diagnostics.push(...r.diagnostics);
  // Written even after errors: whatever was created is in this state; if the store cannot take
  // it, it goes to errored.tfstate (OpenTofu's backend_apply.go).
  store.write(r.state);
  diagnostics.push(...(await persistOrSaveErrored(store, { dir: workingDir })).diagnostics);
  ov.diagnostics(diagnostics);
  if (hasErrors(diagnostics)) return 1;
  // command/apply.go: the counts, and the outputs unless this is `destroy`.
  ov.resourceCount(destroyCmd);
  if (!destroyCmd) ov.outputs(r.state);
  return 0;
}

export const applyCommand: Command = (args, io) => applyCommandImpl(args, io, false);
export const destroyCommand: Command = (args, io) => applyCommandImpl(args, io, true);
