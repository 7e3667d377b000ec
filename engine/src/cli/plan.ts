// `terrace plan`: OpenTofu's command/plan.go with the local backend (backend/local
// backend_plan.go): load the configuration and root variables, read the local state
// (terraform.tfstate), plan through core, print the refresh lines and the human plan, optionally
// save it (-out). Also the pieces `apply` and `destroy` share: loading, provider instances
// (the builtin `terraform` provider in process; others from .terraform/providers), hooks.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { AbsResourceInstance, Provider as ProviderAddr } from "../addrs/index.js";
import { allConfigs, dataDir, inputVariableDeclarations, Loader, moduleSourceString, versionString, type Config } from "../configs/index.js";
import { interactiveCollectVariables, parseVariableValues, type InputValue } from "../configs/inputvars/index.js";
import { NO_ENCRYPTION, type Encryption } from "../encryption/index.js";
import { Context, DEFAULT_PARALLELISM, type Hooks, type PlanResult, type ProviderFactory } from "../core/index.js";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import {
  BuiltinTerraformProvider,
  LOCK_FILE_PATH,
  ProviderCacheDir,
  attachProvider,
  currentPlatform,
  executableFile,
  executableIn,
  launchProvider,
  loadLocksFromFile,
  standardRemoteStateBackends,
} from "../providers/index.js";
import {
  changesEmpty,
  horizontalRule,
  marshalPlanForRenderer,
  newColorize,
  newSchemas,
  renderHumanPlan,
  resourceTypeLookup,
  wordWrap,
  writePlanFile,
  type ConfigSnapshot,
  type Plan,
  type PlanBackend,
  type ProviderSchemaSet,
} from "../plans/index.js";
import { State, acquireLock, unlockErrorDiagnostic, type StateStore } from "../states/index.js";
import { currentWorkspace } from "./workspace.js";
import { planBackend } from "./backend_config.js";
import { Meta, runningInAutomation } from "./meta.js";
import { formatValue, type Value } from "../values/index.js";
import { parseFlags, parseViewArgs, type FlagSpec } from "./args.js";
import { PLAN_FLAGS, forceReplaceModeDiagnostics, parallelismDiagnostics, runFlags, type RunFlags } from "./runflags.js";
import { generateConfigFlagDiagnostics, writeGeneratedConfig } from "./generate_config.js";
import { NodeFunctionFileSystem } from "./function-fs.js";
import { versionString as lockedVersionString } from "../versions/index.js";
import { bundledProviders } from "./bundled.js";
import { coreLog } from "../logging/index.js";
import { cliDevOverrides, devOverrideRuntimeWarnings, unmanagedProviders } from "./devoverrides.js";
import type { Command, CommandIO } from "./io.js";
import { JSONOperationView } from "./jsonview.js";
import { Prompter } from "./prompt.js";
import { View, type OperationView } from "./view.js";
import { verifyDependencyLocks } from "./provider_requirements.js";
import { MultiOperationView, openJSONInto } from "./json_into.js";
import { TOFU_VERSION } from "./version.js";

export { TOFU_VERSION, Prompter };

const PLAN_HELP = `Usage: terrace [global options] plan [options]

  Generates a speculative execution plan, showing what actions OpenTofu
  would take to apply the current configuration. This command will not
  actually perform the planned actions.

  You can optionally save the plan to a file, which you can then pass to
  the "apply" command to perform exactly the actions described in the plan.

Options:

  -destroy              Select the "destroy" planning mode, which creates a plan
                        to destroy all objects currently managed by this
                        OpenTofu configuration instead of the usual behavior.

  -refresh-only         Select the "refresh only" planning mode, which checks
                        whether remote objects still match the outcome of the
                        most recent OpenTofu apply but does not propose any
                        actions to undo any changes made outside of OpenTofu.

  -refresh=false        Skip checking for changes to remote objects while
                        creating the plan.

  -replace=resource     Force replacement of a particular resource instance using
                        its resource address. If the plan would've otherwise
                        produced an update or no-op action for this instance,
                        OpenTofu will plan to replace it instead. You can use
                        this option multiple times to replace more than one object.

  -target=resource      Limit the planning operation to only the given module,
                        resource, or resource instance and all of its
                        dependencies. You can use this option multiple times to
                        include more than one object.

  -target-file=filename As -target, with the addresses read from a file, one
                        per line ("#" starts a comment line).

  -exclude=resource     Limit the planning operation to not operate on the given
                        module, resource, or resource instance and all of the
                        resources and modules that depend on it. You can use this
                        option multiple times to exclude more than one object.

  -exclude-file=filename
                        As -exclude, with the addresses read from a file.

  -compact-warnings     If OpenTofu produces any warnings that are not
                        accompanied by errors, shows them in a more compact
                        form that includes only the summary messages.

  -consolidate-warnings=false
                        List every warning in full instead of folding similar
                        ones into the first.

  -consolidate-errors   Fold similar errors into the first, as warnings are.

  -concise              Leave out the progress lines (refreshing, reading, …).

  -deprecation=module:all|local|none
                        Which module calls are warned for setting a deprecated
                        variable: all (the default), only modules called by a
                        relative path, or none.

  -detailed-exitcode    Return detailed exit codes when the command exits.
                        This will change the meaning of exit codes to:
                        0 - Succeeded, diff is empty (no changes)
                        1 - Errored
                        2 - Succeeded, there is a diff

  -generate-config-out=path
                        (Experimental) If import blocks are present in
                        configuration, instructs OpenTofu to generate HCL
                        for any imported resources not already present. The
                        configuration is written to a new file at PATH,
                        which must not already exist. OpenTofu may still
                        attempt to write configuration if the plan errors.

  -input=true           Ask for input for variables if not directly set.

  -json-into=file       Write the machine-readable messages -json would print
                        into the file, keeping this output on the terminal.

  -no-color             If specified, output won't contain any color.

  -out=path             Write a plan file to the given path.

  -parallelism=n        Limit the number of concurrent operations. Defaults to 10.

  -show-sensitive       Show sensitive values in the plan instead of hiding them.

  -state=statefile      A legacy option used for the local backend only. See the
                        local backend's documentation for more information.

  -var 'foo=bar'        Set a value for one of the input variables in the root
                        module of the configuration. Use this option more than
                        once to set more than one variable.

  -var-file=filename    Load variable values from the given file.
`;

async function readStateBytes(p: string): Promise<Uint8Array | undefined> {
  try {
    return new Uint8Array(await readFile(p));
  } catch (e) {
    if (typeof e === "object" && e !== null && "code" in e && e.code === "ENOENT") return undefined;
    throw e;
  }
}

/**
 * A provider factory for the working directory: builtin in process, a provider the CLI
 * configuration's dev_overrides name from that directory, others from the plugin cache.
 */
export function providerFactory(workingDir: string, env: CommandIO["env"], encryption: Encryption = NO_ENCRYPTION): ProviderFactory {
  let overrides: ReturnType<typeof cliDevOverrides> | undefined;
  return async (p: ProviderAddr) => {
    if (p.isBuiltIn() && p.type === "terraform") {
      const backends = standardRemoteStateBackends({ readFile: readStateBytes, baseDir: workingDir, terraceToken: process.env["TERRACE_TOKEN"] });
      // terraform_remote_state decrypts with the configuration's remote_state_data_sources.
      const remoteStateDecrypter = (key: string) => (stored: Uint8Array) => {
        const d = encryption.remoteState(key).decryptState(stored);
        return d.ok ? { ok: true as const, data: d.data } : d;
      };
      return { ok: true, provider: new BuiltinTerraformProvider({ remoteStateBackends: backends, remoteStateDecrypter }) };
    }
    const fail = (detail: string) => ({ ok: false as const, diagnostics: [errorDiag("Failed to load plugin schemas", detail)] });
    // A provider someone started for debugging wins over any other source, as in OpenTofu.
    const unmanaged = unmanagedProviders(env).get(p.toString());
    if (unmanaged) {
      coreLog().debug(`Provider ${p.toString()} is overridden as an "unmanaged provider"`);
      const r = await attachProvider(p.toString(), unmanaged);
      return r.ok ? { ok: true, provider: r.provider } : { ok: false, diagnostics: r.diagnostics };
    }
    overrides ??= cliDevOverrides(env, workingDir);
    const override = (await overrides).get(p.toString());
    if (override) {
      coreLog().debug(`Provider ${p.toString()} is overridden to load from ${override.dir}`);
      const exe = await executableIn(override.dir, p);
      if (!exe.ok) return fail(`Could not load the schema for provider ${p.toString()}: provider development override in ${override.dir}: ${exe.error}.`);
      const r = await launchProvider({ command: exe.path, cwd: workingDir, providerAddr: p.toString() });
      return r.ok ? { ok: true, provider: r.provider } : { ok: false, diagnostics: r.diagnostics };
    }
    const locks = await loadLocksFromFile(path.join(workingDir, LOCK_FILE_PATH));
    const lock = locks.missing ? undefined : locks.locks.provider(p);
    if (!lock) return fail(`Could not load the schema for provider ${p.toString()}: the provider is not installed. Run "terrace init".`);
    // A provider Terrace ships is not copied into the cache: init locks its version and it runs
    // from the engine's own executables.
    const bundled = bundledProviders().find((b) => b.provider.equal(p) && b.version === lockedVersionString(lock.version));
    let command: string;
    if (bundled) command = bundled.executable;
    else {
      const cache = new ProviderCacheDir(path.resolve(workingDir, dataDir(), "providers"), currentPlatform());
      const entry = await cache.providerVersion(p, lock.version);
      if (!entry) return fail(`Could not load the schema for provider ${p.toString()}: the provider is not installed. Run "terrace init".`);
      const exe = await executableFile(entry);
      if (!exe.ok) return fail(exe.error);
      command = exe.path;
    }
    const r = await launchProvider({ command, cwd: workingDir, providerAddr: p.toString() });
    return r.ok ? { ok: true, provider: r.provider } : { ok: false, diagnostics: r.diagnostics };
  };
}

/** The id shown in progress lines ("[id=…]"). */
function idOf(v: Value): string {
  if (v.kind !== "object") return "";
  const id = v.attrs.get("id");
  return id && id.kind === "string" && id.marks.size === 0 ? id.value : "";
}

/**
 * OpenTofu's UiHook lines, and the counts for "Apply complete!" (its countHook). With -concise
 * only the counting is left (NewUIOptionalHook).
 */
export class UIHooks implements Hooks {
  imported = 0;
  added = 0;
  changed = 0;
  removed = 0;
  forgotten = 0;
  private readonly started = new Map<string, number>();
  private lastProgress = 0;
  private readonly view: { println(s: string): void; setStatus(s: string): void };
  constructor(
    view: View,
    private readonly options: HumanOperationOptions = {},
  ) {
    this.view = options.concise ? { println: () => {}, setStatus: () => {} } : view;
  }

  /** "N/M" on a terminal while a graph walk runs, at most ten times a second (View.setStatus). */
  walkProgress(done: number, total: number): void {
    const now = Date.now();
    if (done < total && now - this.lastProgress < 100) return;
    this.lastProgress = now;
    this.view.setStatus(`${done}/${total}`);
  }

  preRefresh(addr: AbsResourceInstance, deposed: string, prior: Value): void {
    const id = idOf(prior);
    this.view.println(`[reset][bold]${addr.toString()}${deposed ? ` (deposed object ${deposed})` : ""}: Refreshing state...${id ? ` [id=${id}]` : ""}`);
  }

  /** An `import` block's target, before ImportResourceState (core/import.ts). */
  prePlanImport(addr: AbsResourceInstance, id: string): void {
    this.view.println(`[reset][bold]${addr.toString()}: Preparing import... [id=${id}]`);
  }

  preApply(addr: AbsResourceInstance, deposed: string, action: Plan["changes"]["resources"][number]["change"]["action"], prior: Value): void {
    // A change that came out as nothing at apply time is not announced (tofu's uiResourceNoOp).
    if (action === "NoOp") return;
    this.started.set(`${addr.toString()}|${deposed}`, Date.now());
    const id = idOf(prior);
    const what =
      action === "Delete" ? `Destroying...${id ? ` [id=${id}]` : ""}` : action === "Update" ? `Modifying...${id ? ` [id=${id}]` : ""}` : action === "Read" ? "Reading..." : "Creating...";
    this.view.println(`[reset][bold]${addr.toString()}${deposed ? ` (deposed object ${deposed})` : ""}: ${what}`);
  }

  preApplyImport(addr: AbsResourceInstance, id: string): void {
    this.view.println(`[reset][bold]${addr.toString()}: Importing... [id=${id}]`);
  }

  postApplyImport(addr: AbsResourceInstance, id: string): void {
    this.imported++;
    this.view.println(`[reset][bold]${addr.toString()}: Import complete [id=${id}]`);
  }

  /** Counted only: tofu's UiHook prints nothing for a forgotten object. */
  postApplyForget(): void {
    this.forgotten++;
  }

  preProvisionInstanceStep(addr: AbsResourceInstance, typeName: string): void {
    this.view.println(`[reset][bold]${addr.toString()}: Provisioning with '${typeName}'...[reset]`);
  }

  /**
   * One output line, right-trimmed; an empty one still prints an empty line, as tofu's does. A line
   * hidden because the configuration is sensitive is shown with -show-sensitive.
   */
  provisionOutput(addr: AbsResourceInstance, typeName: string, line: string, sensitiveLine?: string): void {
    const shown = this.options.showSensitive === true && sensitiveLine !== undefined ? sensitiveLine : line;
    const text = shown.replace(/\s+$/u, "");
    this.view.println(text === "" ? "" : `[reset][bold]${addr.toString()} (${typeName}):[reset] ${text}`);
  }

  // Ephemeral resources (UiHook.preEphemeral/postEphemeral): not counted in the summary.
  preOpen(addr: AbsResourceInstance): void {
    this.preEphemeral(addr, "Opening...");
  }
  postOpen(addr: AbsResourceInstance): void {
    this.postEphemeral(addr, "Open complete");
  }
  preRenew(addr: AbsResourceInstance): void {
    this.preEphemeral(addr, "Renewing...");
  }
  postRenew(addr: AbsResourceInstance): void {
    this.postEphemeral(addr, "Renew complete");
  }
  preClose(addr: AbsResourceInstance): void {
    this.preEphemeral(addr, "Closing...");
  }
  postClose(addr: AbsResourceInstance): void {
    this.postEphemeral(addr, "Close complete");
  }
  deferred(addr: AbsResourceInstance, reason: string): void {
    this.view.println(`[reset][bold]${addr.toString()}: Deferred due to ${reason}`);
  }
  private preEphemeral(addr: AbsResourceInstance, what: string): void {
    this.started.set(`${addr.toString()}|ephemeral`, Date.now());
    this.view.println(`[reset][bold]${addr.toString()}: ${what}[reset]`);
  }
  private postEphemeral(addr: AbsResourceInstance, what: string): void {
    const secs = Math.floor((Date.now() - (this.started.get(`${addr.toString()}|ephemeral`) ?? Date.now())) / 1000);
    this.view.println(`[reset][bold]${addr.toString()}: ${what} after ${secs}s`);
  }

  postApply(addr: AbsResourceInstance, deposed: string, action: Plan["changes"]["resources"][number]["change"]["action"], newState: Value, failed: boolean): void {
    if (failed) return;
    const secs = Math.floor((Date.now() - (this.started.get(`${addr.toString()}|${deposed}`) ?? Date.now())) / 1000);
    const id = idOf(newState);
    let what: string;
    if (action === "Delete") {
      this.removed++;
      what = `Destruction complete after ${secs}s`;
    } else if (action === "Read") {
      // Data source reads are not counted in the summary.
      what = `Read complete after ${secs}s${id ? ` [id=${id}]` : ""}`;
    } else if (action === "Update") {
      this.changed++;
      what = `Modifications complete after ${secs}s${id ? ` [id=${id}]` : ""}`;
    } else {
      this.added++;
      what = `Creation complete after ${secs}s${id ? ` [id=${id}]` : ""}`;
    }
    this.view.println(`[reset][bold]${addr.toString()}${deposed ? ` (deposed object ${deposed})` : ""}: ${what}`);
  }
}

export interface LoadedWorkingDir {
  readonly config: Config;
  readonly variables: Map<string, InputValue>;
  readonly store: StateStore;
  readonly state: State;
  readonly loader: Loader;
  /** The backend a saved plan records. */
  readonly backend: PlanBackend | undefined;
  /** The configured encryption, which a saved plan is written with. */
  readonly encryption: Encryption;
}

/**
 * The backend, then the configuration, root variable values and state of the working directory:
 * tofu's Meta.Backend runs before the local backend's operation loads the configuration, so a
 * backend configured from a missing variable is the error reported. `import` loads the
 * configuration first (configFirst).
 */
export async function loadWorkingDir(meta: Meta, opts: { configFirst?: boolean } = {}): Promise<{ loaded: LoadedWorkingDir | undefined; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  if (!opts.configFirst) {
    const b = await meta.backend();
    diagnostics.push(...b.diagnostics);
    if (!b.backend) return { loaded: undefined, diagnostics };
  }
  const r = await meta.loadConfig();
  diagnostics.push(...r.diagnostics);
  if (hasErrors(diagnostics) || !r.config) return { loaded: undefined, diagnostics };
  // The lock file must select a fitting version of every provider before anything runs.
  diagnostics.push(...(await verifyDependencyLocks(r.config, meta.io, meta.workingDir)));
  if (hasErrors(diagnostics)) return { loaded: undefined, diagnostics };
  const decls = inputVariableDeclarations(r.config.module);
  const root = meta.rootInputs();
  let unparsed = new Map(root.values);
  for (const [k, v] of root.inputs?.promptAnswers() ?? []) if (!unparsed.has(k)) unparsed.set(k, v);
  unparsed = await interactiveCollectVariables(unparsed, decls, meta.variablePrompter());
  const parsed = parseVariableValues(unparsed, decls);
  diagnostics.push(...parsed.diagnostics);
  if (hasErrors(diagnostics)) return { loaded: undefined, diagnostics };

  // The configured backend's store for the selected workspace (local file or http).
  const read = await meta.readState();
  diagnostics.push(...read.diagnostics);
  if (hasErrors(diagnostics) || !read.read) return { loaded: undefined, diagnostics };
  const backend = planBackend(await meta.backend(), meta.workspace);
  const encryption = (await meta.encryption()).encryption ?? NO_ENCRYPTION;
  return { loaded: { config: r.config, variables: parsed.values, store: read.read.store, state: read.read.state, loader: r.loader, backend, encryption }, diagnostics };
}

/** tofu.NewContext: refused for a negative -parallelism; 0 is the default. */
export function newContext(
  io: CommandIO,
  workingDir: string,
  flags: Pick<RunFlags, "parallelism"> & Partial<Pick<RunFlags, "deprecation">>,
  hooks: Hooks,
  encryption: Encryption = NO_ENCRYPTION,
): { ctx: Context | undefined; diagnostics: Diagnostic[] } {
  const diagnostics = parallelismDiagnostics(flags.parallelism);
  if (hasErrors(diagnostics)) return { ctx: undefined, diagnostics };
  const ctx = new Context({
    providers: providerFactory(workingDir, io.env, encryption),
    parallelism: flags.parallelism === 0 ? DEFAULT_PARALLELISM : flags.parallelism,
    terraformVersion: TOFU_VERSION,
    functionFS: new NodeFunctionFileSystem(workingDir),
    cwd: workingDir,
    workspace: currentWorkspace(io).name,
    hooks,
    ...(flags.deprecation ? { deprecationWarnings: flags.deprecation } : {}),
  });
  return { ctx, diagnostics };
}

/** The human plan (OpenTofu's views.Plan), from the JSON plan and the schemas it was made with. */
export function renderPlan(view: View, plan: Plan, schemas: Map<string, ProviderSchemaSet>, showSensitive = false): Diagnostic[] {
  const s = newSchemas(schemas);
  const json = marshalPlanForRenderer(plan, s);
  if (!json.ok) return [errorDiag("Failed to render the plan", json.error)];
  const blocks = (provider: string, mode: string, type: string) => s.resourceTypeConfig(provider, mode === "data" ? "data" : "managed", type)?.block;
  const width = view.io.stdout.isTTY ? ((view.io.stdout as { columns?: number }).columns ?? 78) : 78;
  const r = renderHumanPlan(json.json, blocks, plan.uiMode, {
    color: view.colorEnabled && view.io.stdout.isTTY === true,
    columns: width,
    errored: plan.errored,
    noChanges: changesEmpty(plan.changes),
    showSensitive,
    runningInAutomation: runningInAutomation(view.io.env),
  });
  if (!r.ok) return [errorDiag("Failed to render the plan", r.error)];
  view.io.stdout.write(r.text);
  return [];
}

export function rule(view: View): string {
  const width = view.io.stdout.isTTY ? ((view.io.stdout as { columns?: number }).columns ?? 78) : 78;
  return horizontalRule(newColorize(view.colorEnabled && view.io.stdout.isTTY === true), width);
}

/** The configuration files of every module, for a saved plan (planfile's config snapshot). */
export function configSnapshot(loader: Loader, config: Config, workingDir: string): ConfigSnapshot {
  const modules = allConfigs(config).map((c) => {
    const files = new Map<string, Uint8Array>();
    const listed = loader.parser.configDirFiles(c.module.sourceDir);
    for (const f of [...listed.primary, ...listed.override]) {
      files.set(path.basename(f), new Uint8Array(readFileSync(path.resolve(workingDir, f))));
    }
    return { key: c.path.join("."), dir: c.module.sourceDir, sourceAddr: c.sourceAddr ? moduleSourceString(c.sourceAddr) : "", version: c.version ? versionString(c.version) : "", files };
  });
  return { modules };
}

/** Prints the outputs after an apply, as tofu does; a sensitive one is hidden unless -show-sensitive. */
export function printOutputs(view: View, state: State, showSensitive = false): void {
  const outs = [...state.rootModule().outputValues.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (outs.length === 0) return;
  view.println("[reset][bold][green]\nOutputs:\n");
  for (const o of outs) view.println(`${o.name} = ${o.sensitive && !showSensitive ? "<sensitive>" : formatValue(o.value)}`);
}

/** What the human operation view shows besides diagnostics: -show-sensitive and -concise. */
export interface HumanOperationOptions {
  readonly showSensitive?: boolean;
  readonly concise?: boolean;
}

/** The human form of plan, apply, destroy and refresh (PlanHuman, ApplyHuman, RefreshHuman). */
export class HumanOperationView implements OperationView {
  readonly json = false;
  readonly hooks: UIHooks;
  constructor(
    readonly view: View,
    readonly options: HumanOperationOptions = {},
  ) {
    this.hooks = new UIHooks(view, options);
  }

  diagnostics(diags: readonly Diagnostic[]): void {
    this.view.diagnostics(diags);
  }

  helpPrompt(command: string): void {
    this.view.io.stderr.write(`\nFor more help on using this command, run:\n  terrace ${command} -help\n`);
  }

  plan(plan: Plan, schemas: Map<string, ProviderSchemaSet>): Diagnostic[] {
    return renderPlan(this.view, plan, schemas, this.options.showSensitive);
  }

  planNextStep(outPath: string | undefined, genConfigPath?: string): void {
    const view = this.view;
    // Automation provides its own next steps (views.OperationHuman.PlanNextStep).
    if (runningInAutomation(view.io.env)) return;
    view.println(rule(view));
    if (genConfigPath !== undefined) {
      const width = view.io.stdout.isTTY ? ((view.io.stdout as { columns?: number }).columns ?? 78) : 78;
      const text = `OpenTofu has generated configuration and written it to ${genConfigPath}. Please review the configuration and edit it as necessary before adding it to version control.`;
      view.println(`\n${wordWrap(text, width)}`);
    }
    if (outPath !== undefined) {
      view.println(`\nSaved the plan to: ${outPath}\n\nTo perform exactly these actions, run the following command to apply:\n    terrace apply ${JSON.stringify(outPath)}`);
    } else {
      view.println(`\n[reset][yellow]Note: You didn't use the -out option to save this plan, so OpenTofu can't\nguarantee to take exactly these actions if you run "terrace apply" now.`);
    }
  }

  plannedChanges(): void {}

  resourceCount(destroyCmd: boolean): void {
    const h = this.hooks;
    // The destroy command's summary never mentions forgotten objects (ApplyHuman.ResourceCount).
    if (destroyCmd) this.view.println(`[reset][bold][green]\nDestroy complete! Resources: ${h.removed} destroyed.`);
    else {
      const imported = h.imported > 0 ? `${h.imported} imported, ` : "";
      const forgotten = h.forgotten > 0 ? `, ${h.forgotten} forgotten` : "";
      this.view.println(`[reset][bold][green]\nApply complete! Resources: ${imported}${h.added} added, ${h.changed} changed, ${h.removed} destroyed${forgotten}.`);
    }
  }

  outputs(state: State): void {
    printOutputs(this.view, state, this.options.showSensitive);
  }

  walkDone(): void {
    this.view.clearStatus();
  }

  stateLocking(message: string): void {
    this.view.println(message);
  }
}

/** The view `-json` selects; the JSON one starts its stream with the version message. */
export function operationView(
  io: CommandIO,
  flags: Pick<RunFlags, "json" | "color"> & Partial<Pick<RunFlags, "compactWarnings" | "consolidateWarnings" | "consolidateErrors" | "concise" | "showSensitive" | "jsonInto">>,
): OperationView {
  // -json output is never coloured, whatever -no-color says, and lists every diagnostic in full.
  if (flags.json) return new JSONOperationView(new View(io, false), TOFU_VERSION, { showSensitive: flags.showSensitive ?? false });
  const view = new View(io, flags.color, false, flags);
  const human = new HumanOperationView(view, { showSensitive: flags.showSensitive ?? false, concise: flags.concise ?? false });
  if (!flags.jsonInto) return human;
  // The stream quotes the same configuration sources as the terminal.
  const machine = new JSONOperationView(new View({ ...io, stdout: flags.jsonInto.stdout }, false, false, {}, view.sources), TOFU_VERSION, { showSensitive: flags.showSensitive ?? false });
  return new MultiOperationView(human, machine);
}

/** How long a lock may take before the user is told that it is being waited for (clistate). */
const LOCK_SLOW_MS = 400;

/**
 * Takes the state lock for an operation, unless -lock=false, retrying for -lock-timeout as tofu's
 * clistate locker does. `unlock` reports a failed release and answers whether it succeeded.
 */
export async function lockState(ov: OperationView, store: StateStore, flags: Pick<RunFlags, "lock" | "lockTimeoutMs">, operation: string): Promise<{ unlock: () => Promise<boolean> } | undefined> {
  if (!flags.lock) return { unlock: async () => true };
  const message = "Acquiring state lock. This may take a few moments...";
  const slow = setTimeout(() => ov.stateLocking(message), LOCK_SLOW_MS);
  const l = await acquireLock(store, operation, flags.lockTimeoutMs, { version: TOFU_VERSION }).finally(() => clearTimeout(slow));
  if (l.diagnostics.length > 0) {
    ov.diagnostics(l.diagnostics);
    return undefined;
  }
  return {
    unlock: async () => {
      const u = await store.unlock(l.id);
      if (u.ok) return true;
      ov.diagnostics([unlockErrorDiagnostic(u.error)]);
      return false;
    },
  };
}

export interface PlanRun {
  readonly result: PlanResult | undefined;
  readonly loaded: LoadedWorkingDir | undefined;
  readonly code: number;
  /** Whether `-generate-config-out` wrote a file. */
  readonly wroteConfig?: boolean;
  /** With `deferDiagnostics`, a successful plan's warnings, not yet shown. */
  readonly diagnostics?: readonly Diagnostic[];
  /** Releases the state lock still held with `keepLock` (a no-op otherwise). */
  readonly unlock: () => Promise<boolean>;
}

/**
 * op.HasConfig() failing in the local backend's opPlan and opApply: with no configuration file
 * every object in the state would be planned for destruction, so only destroy mode may go on.
 * (opRefresh has no such check: refreshing without configuration changes nothing.)
 */
function noConfigurationDiagnostics(meta: Meta, operation: string, mode: RunFlags["mode"]): Diagnostic[] {
  if (mode === "destroy" || meta.loader().parser.isConfigDir(".")) return [];
  if (operation === "OperationTypeApply") {
    return [
      errorDiag(
        "No configuration files",
        "Apply requires configuration to be present. Applying without a configuration would mark everything for destruction, which is normally not what is desired. If you would like to destroy everything, run 'terrace destroy' instead.",
      ),
    ];
  }
  return [
    errorDiag(
      "No configuration files",
      "Plan requires configuration to be present. Planning without a configuration would mark everything for destruction, which is normally not what is desired. If you would like to destroy everything, run plan with the -destroy option. Otherwise, create a OpenTofu configuration file (.tf file) and try again.",
    ),
  ];
}

/**
 * Loads the working directory, locks its state (local backend's localRun), plans and shows the
 * plan. The lock is released at the end unless `keepLock` (apply holds it until it is done).
 * With `deferDiagnostics` a plan without errors returns its warnings unshown: apply decides when
 * they are shown (before the approval prompt, or after the apply as backend_apply.go does).
 */
export async function runPlan(
  io: CommandIO,
  ov: OperationView,
  flags: RunFlags,
  workingDir: string,
  opts: { operation?: string; keepLock?: boolean; deferDiagnostics?: boolean } = {},
): Promise<PlanRun> {
  const noLock = async () => true;
  // Planning with dev overrides in effect may not match a released provider: said before the run.
  const warnings = await devOverrideRuntimeWarnings(io.env, workingDir);
  if (warnings.length > 0) ov.diagnostics(warnings);
  const meta = new Meta(io, ov.view, { vars: flags.vars, input: flags.input, state: flags.state });
  const operation = opts.operation ?? "OperationTypePlan";
  coreLog().info(`backend/local: starting ${operation === "OperationTypeApply" ? "Apply" : "Plan"} operation`);
  // The backend first (Meta.Backend), then the local backend's own refusal to plan without
  // configuration, before it loads anything (opPlan, opApply).
  const b = await meta.backend();
  const noConfig = b.backend ? noConfigurationDiagnostics(meta, operation, flags.mode) : [];
  if (!b.backend || noConfig.length > 0) {
    ov.diagnostics([...b.diagnostics, ...noConfig]);
    return { result: undefined, loaded: undefined, code: 1, unlock: noLock };
  }
  const l = await loadWorkingDir(meta);
  if (!l.loaded) {
    ov.diagnostics(l.diagnostics);
    return { result: undefined, loaded: undefined, code: 1, unlock: noLock };
  }
  const lock = await lockState(ov, l.loaded.store, flags, operation);
  if (!lock) return { result: undefined, loaded: undefined, code: 1, unlock: noLock };
  const finish = async (r: Omit<PlanRun, "unlock">): Promise<PlanRun> => {
    if (opts.keepLock && r.code === 0) return { ...r, unlock: lock.unlock };
    const released = await lock.unlock();
    return { ...r, code: released ? r.code : 1, unlock: noLock };
  };
  try {
    // The state as it is now that nobody else can change it.
    const diags = [...l.diagnostics];
    if (flags.lock) diags.push(...(await l.loaded.store.refresh()));
    const loaded: LoadedWorkingDir = { ...l.loaded, state: l.loaded.store.state() ?? new State() };
    if (hasErrors(diags)) {
      ov.diagnostics(diags);
      return await finish({ result: undefined, loaded, code: 1 });
    }
    const c = newContext(io, workingDir, flags, ov.hooks, loaded.encryption);
    diags.push(...c.diagnostics, ...forceReplaceModeDiagnostics(flags));
    if (!c.ctx || hasErrors(diags)) {
      ov.diagnostics(diags);
      return await finish({ result: undefined, loaded, code: 1 });
    }
    const result = await c.ctx.plan(loaded.config, loaded.state, {
      mode: flags.mode,
      refresh: flags.refresh,
      variables: loaded.variables,
      replace: flags.replace,
      targets: flags.targets,
      excludes: flags.excludes,
      ...(flags.generateConfigOut !== undefined ? { generateConfigPath: flags.generateConfigOut } : {}),
    });
    ov.walkDone();
    diags.push(...result.diagnostics);
    // Generated configuration is written before the plan is shown, even when planning failed.
    let wroteConfig = false;
    if (flags.generateConfigOut !== undefined) {
      const w = writeGeneratedConfig(result.plan, path.resolve(workingDir, flags.generateConfigOut), flags.generateConfigOut);
      diags.push(...w.diagnostics);
      wroteConfig = w.wrote;
    }
    if (hasErrors(diags)) {
      // A plan that failed part-way is still shown before its errors, as OpenTofu's local backend
      // shows it ("planned the following actions, but then encountered a problem", or "Planning
      // failed"): by plan whenever the walk ran, by apply only when it planned some change.
      const show = operation === "OperationTypePlan" ? result.walked : result.hasChanges;
      const renderDiags = show ? ov.plan(result.plan, result.schemas) : [];
      ov.diagnostics([...diags, ...renderDiags]);
      return await finish({ result, loaded, code: 1 });
    }
    const renderDiags = ov.plan(result.plan, result.schemas);
    const planDiags = [...diags, ...renderDiags];
    if (opts.deferDiagnostics && !hasErrors(planDiags)) return await finish({ result, loaded, code: 0, wroteConfig, diagnostics: planDiags });
    ov.diagnostics(planDiags);
    return await finish({ result, loaded, code: hasErrors(renderDiags) ? 1 : 0, wroteConfig });
  } catch (e) {
    ov.walkDone();
    await lock.unlock();
    throw e;
  }
}

/** The view for problems found before the flags are fully read (`-json` as far as it was given). */
export function earlyView(io: CommandIO, args: readonly string[]): OperationView {
  const json = args.includes("-json") || args.includes("--json");
  return operationView(io, { json, color: !args.includes("-no-color") });
}

/**
 * The start plan, apply, destroy and refresh share (arguments.ParsePlan and the like): the global
 * view options taken out, `command`'s flags read and `-help` answered, or a flag the command does
 * not define reported in the early view; a number is the exit code to return. More positional
 * arguments than `positional.max` are one of the returned flags' diagnostics, which the command
 * reports with the help prompt.
 */
export function readRunFlags(
  args: readonly string[],
  io: CommandIO,
  spec: FlagSpec,
  command: string,
  help: string,
  positional: { readonly max: number; readonly detail: string },
): RunFlags | number {
  const { view, rest } = parseViewArgs(args);
  const p = parseFlags(rest, spec);
  if (typeof p === "string") {
    const early = earlyView(io, args);
    early.diagnostics([errorDiag("Failed to parse command-line flags", p)]);
    early.helpPrompt(command);
    return 1;
  }
  if (p.bools.get("help")) {
    io.stdout.write(help);
    return 0;
  }
  // A -target-file or -exclude-file is read relative to the working directory (after -chdir).
  let flags = runFlags(p, view, (file) => readFileSync(path.resolve(io.cwd, file), "utf8"));
  // ViewOptions.Parse: the -json-into file is opened with the flags, and a problem is a flag error.
  const into = p.strings.get("json-into");
  if (into !== undefined && into !== "") {
    const opened = openJSONInto(io, into);
    if ("severity" in opened) flags = { ...flags, diagnostics: [...flags.diagnostics, opened] };
    else if (!flags.json) flags = { ...flags, jsonInto: opened };
    if (flags.json) flags = { ...flags, diagnostics: [...flags.diagnostics, errorDiag("Invalid output format", "The -json and -json-into arguments are mutually exclusive")] };
  }
  if (flags.positional.length <= positional.max) return flags;
  // After the flags' own parse errors, before the operation's (the order tofu appends them in).
  const parseErrors = flags.diagnostics.filter((d) => d.summary === "Failed to parse command-line flags");
  const others = flags.diagnostics.filter((d) => d.summary !== "Failed to parse command-line flags");
  return { ...flags, diagnostics: [...parseErrors, errorDiag("Too many command line arguments", positional.detail), ...others] };
}

export const planCommand: Command = async (args, io) => {
  const flags = readRunFlags(args, io, PLAN_FLAGS, "plan", PLAN_HELP, { max: 0, detail: "To specify a working directory for the plan, use the global -chdir flag." });
  if (typeof flags === "number") return flags;
  const ov = operationView(io, flags);
  if (hasErrors(flags.diagnostics)) {
    ov.diagnostics(flags.diagnostics);
    ov.helpPrompt("plan");
    return 1;
  }
  const workingDir = path.resolve(io.cwd);
  if (flags.generateConfigOut !== undefined) {
    const d = generateConfigFlagDiagnostics(flags.mode, path.resolve(workingDir, flags.generateConfigOut));
    if (hasErrors(d)) {
      ov.diagnostics(d);
      return 1;
    }
  }
  const { result, loaded, code, wroteConfig } = await runPlan(io, ov, flags, workingDir);
  if (!result || !loaded) return code;
  // An errored plan is saved too, for inspection (`show`); apply refuses it.
  if (code !== 0 && !(result.walked && result.plan.errored)) return code;
  if (flags.out !== undefined) {
    // The plan carries the backend and the variable values, so show and apply need no -var.
    result.plan.backend = loaded.backend;
    const meta = loaded.store.snapshotMeta();
    // tofu refuses to apply a saved plan without the dependency locks it was made with.
    const lockPath = path.join(workingDir, LOCK_FILE_PATH);
    const w = writePlanFile(
      {
        plan: result.plan,
        config: configSnapshot(loaded.loader, loaded.config, workingDir),
        priorStateMeta: { lineage: meta.lineage, serial: meta.serial },
        dependencyLocks: existsSync(lockPath) ? new Uint8Array(readFileSync(lockPath)) : new Uint8Array(),
      },
      { tofuVersion: TOFU_VERSION, resourceTypes: resourceTypeLookup(newSchemas(result.schemas)) },
    );
    if (!w.ok) {
      ov.diagnostics(w.diagnostics);
      return 1;
    }
    const sealed = loaded.encryption.plan.encryptPlan(w.bytes);
    if (!sealed.ok) {
      ov.diagnostics([errorDiag("Failed to encrypt the plan file", sealed.error)]);
      return 1;
    }
    writeFileSync(path.resolve(workingDir, flags.out), sealed.data);
  }
  if (code !== 0) return code;
  // backend_plan's PlanEmpty is !plan.CanApply(): drift counts only in refresh-only mode.
  if (result.plan.applyable) ov.planNextStep(flags.out, wroteConfig ? flags.generateConfigOut : undefined);
  if (flags.detailedExitcode && result.plan.applyable) return 2;
  return 0;
};
