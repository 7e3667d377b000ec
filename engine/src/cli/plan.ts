// `terrace plan`: OpenTofu's command/plan.go with the local backend (backend/local
// backend_plan.go): load the configuration and root variables, read the local state
// (terraform.tfstate), plan through core, print the refresh lines and the human plan, optionally
// save it (-out). Also the pieces `apply` and `destroy` share: loading, provider instances
// (the builtin `terraform` provider in process; others from .terraform/providers), hooks.
import { readFileSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { AbsResourceInstance, Provider as ProviderAddr } from "../addrs/index.js";
import { allConfigs, inputVariableDeclarations, loadConfigWithRootInputs, Loader, moduleSourceString, RootModuleInputs, versionString, type Config } from "../configs/index.js";
import { collectVariableValues, interactiveCollectVariables, parseVariableValues, type InputValue, type VariableArg, type VariablePrompter } from "../configs/inputvars/index.js";
import { Context, type Hooks, type PlanResult, type ProviderFactory } from "../core/index.js";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import {
  BuiltinTerraformProvider,
  LOCK_FILE_PATH,
  ProviderCacheDir,
  currentPlatform,
  executableFile,
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
  writePlanFile,
  type ConfigSnapshot,
  type Plan,
  type ProviderSchemaSet,
} from "../plans/index.js";
import { LocalStore, DEFAULT_STATE_FILENAME, State } from "../states/index.js";
import { formatValue, type Value } from "../values/index.js";
import { parseFlags, type ParsedFlags } from "./args.js";
import { NodeFunctionFileSystem } from "./function-fs.js";
import { versionString as lockedVersionString } from "../versions/index.js";
import { bundledProviders } from "./bundled.js";
import type { Command, CommandIO } from "./io.js";
import { nodeConfigFS, nodeVariableFS } from "./nodefs.js";
import { LineReader, View } from "./view.js";

export const TOFU_VERSION = "1.11.0";
const WORKSPACE = "default";

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

  -refresh=false        Skip checking for changes to remote objects while
                        creating the plan.

  -detailed-exitcode    Return detailed exit codes when the command exits.
                        This will change the meaning of exit codes to:
                        0 - Succeeded, diff is empty (no changes)
                        1 - Errored
                        2 - Succeeded, there is a diff

  -input=true           Ask for input for variables if not directly set.

  -no-color             If specified, output won't contain any color.

  -out=path             Write a plan file to the given path.

  -parallelism=n        Limit the number of concurrent operations. Defaults to 10.

  -var 'foo=bar'        Set a value for one of the input variables in the root
                        module of the configuration. Use this option more than
                        once to set more than one variable.

  -var-file=filename    Load variable values from the given file.
`;

/** The flags plan, apply and destroy have in common. */
export const RUN_FLAGS = {
  bool: ["destroy", "refresh", "input", "no-color", "detailed-exitcode", "auto-approve", "json", "lock"],
  string: ["out", "parallelism", "state", "lock-timeout"],
  multi: ["var", "var-file"],
} as const;

export interface RunFlags {
  readonly destroy: boolean;
  readonly refresh: boolean;
  readonly input: boolean;
  readonly color: boolean;
  readonly detailedExitcode: boolean;
  readonly autoApprove: boolean;
  readonly out: string | undefined;
  readonly parallelism: number;
  readonly vars: VariableArg[];
  readonly positional: string[];
}

/** Reads the shared flags; a string is the error to report. */
export function runFlags(p: ParsedFlags): RunFlags | string {
  const par = p.strings.get("parallelism");
  const parallelism = par === undefined ? 10 : Number(par);
  if (!Number.isInteger(parallelism) || parallelism < 1) return `The parallelism must be a positive whole number, not ${JSON.stringify(par)}.`;
  return {
    destroy: p.bools.get("destroy") ?? false,
    refresh: p.bools.get("refresh") ?? true,
    input: p.bools.get("input") ?? true,
    color: !(p.bools.get("no-color") ?? false),
    detailedExitcode: p.bools.get("detailed-exitcode") ?? false,
    autoApprove: p.bools.get("auto-approve") ?? false,
    out: p.strings.get("out"),
    parallelism,
    vars: p.multi.map((m) => ({ flag: m.name === "var" ? ("-var" as const) : ("-var-file" as const), value: m.value })),
    positional: p.positional,
  };
}

/** Asks on the terminal, as tofu's UIInput does. */
export class Prompter {
  private lines: LineReader | undefined;
  constructor(private readonly view: View) {}

  async ask(query: string, description: string): Promise<string | undefined> {
    let text = `[reset][bold]${query}[reset]\n`;
    if (description !== "") {
      for (const line of description.split("\n")) text += `  ${line}\n`;
      text += "\n";
    }
    text += "  [bold]Enter a value:[reset] ";
    this.view.io.stdout.write(this.view.color(text));
    this.lines ??= new LineReader(this.view.io.stdin);
    const line = await this.lines.readLine();
    this.view.io.stdout.write("\n");
    return line;
  }

  variables(): VariablePrompter {
    return { input: (req) => this.ask(req.query, req.description) };
  }
}

async function readStateBytes(p: string): Promise<Uint8Array | undefined> {
  try {
    return new Uint8Array(await readFile(p));
  } catch (e) {
    if (typeof e === "object" && e !== null && "code" in e && e.code === "ENOENT") return undefined;
    throw e;
  }
}

/** A provider factory for the working directory: builtin in process, others from the plugin cache. */
export function providerFactory(workingDir: string): ProviderFactory {
  return async (p: ProviderAddr) => {
    if (p.isBuiltIn() && p.type === "terraform") {
      const backends = standardRemoteStateBackends({ readFile: readStateBytes, baseDir: workingDir, terraceToken: process.env["TERRACE_TOKEN"] });
      return { ok: true, provider: new BuiltinTerraformProvider({ remoteStateBackends: backends }) };
    }
    const fail = (detail: string) => ({ ok: false as const, diagnostics: [errorDiag("Failed to load plugin schemas", detail)] });
    const locks = await loadLocksFromFile(path.join(workingDir, LOCK_FILE_PATH));
    const lock = locks.missing ? undefined : locks.locks.provider(p);
    if (!lock) return fail(`Could not load the schema for provider ${p.toString()}: the provider is not installed. Run "terrace init".`);
    // A provider Terrace ships is not copied into the cache: init locks its version and it runs
    // from the engine's own executables.
    const bundled = bundledProviders().find((b) => b.provider.equal(p) && b.version === lockedVersionString(lock.version));
    let command: string;
    if (bundled) command = bundled.executable;
    else {
      const cache = new ProviderCacheDir(path.join(workingDir, ".terraform", "providers"), currentPlatform());
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

/** OpenTofu's UiHook lines, and the counts for "Apply complete!". */
export class UIHooks implements Hooks {
  added = 0;
  changed = 0;
  removed = 0;
  private readonly started = new Map<string, number>();
  constructor(private readonly view: View) {}

  preRefresh(addr: AbsResourceInstance, deposed: string, prior: Value): void {
    const id = idOf(prior);
    this.view.println(`[reset][bold]${addr.toString()}${deposed ? ` (deposed object ${deposed})` : ""}: Refreshing state...${id ? ` [id=${id}]` : ""}`);
  }

  preApply(addr: AbsResourceInstance, deposed: string, action: Plan["changes"]["resources"][number]["change"]["action"], prior: Value): void {
    this.started.set(`${addr.toString()}|${deposed}`, Date.now());
    const id = idOf(prior);
    const what = action === "Delete" ? `Destroying...${id ? ` [id=${id}]` : ""}` : action === "Update" ? `Modifying...${id ? ` [id=${id}]` : ""}` : "Creating...";
    this.view.println(`[reset][bold]${addr.toString()}${deposed ? ` (deposed object ${deposed})` : ""}: ${what}`);
  }

  postApply(addr: AbsResourceInstance, deposed: string, action: Plan["changes"]["resources"][number]["change"]["action"], newState: Value, failed: boolean): void {
    if (failed) return;
    const secs = Math.floor((Date.now() - (this.started.get(`${addr.toString()}|${deposed}`) ?? Date.now())) / 1000);
    const id = idOf(newState);
    let what: string;
    if (action === "Delete") {
      this.removed++;
      what = `Destruction complete after ${secs}s`;
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
  readonly store: LocalStore;
  readonly state: State;
  readonly loader: Loader;
}

/** Configuration, root variable values and the local state of the working directory. */
export async function loadWorkingDir(
  io: CommandIO,
  view: View,
  workingDir: string,
  flags: RunFlags,
  prompter: Prompter,
): Promise<{ loaded: LoadedWorkingDir | undefined; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const loader = new Loader({ fs: nodeConfigFS(workingDir), workingDir: "." });
  const vars = collectVariableValues({ env: io.env, args: flags.vars, fs: nodeVariableFS(workingDir), dir: "." });
  view.addSources(vars.sources);
  diagnostics.push(...vars.diagnostics);
  if (hasErrors(diagnostics)) return { loaded: undefined, diagnostics };
  const inputs = new RootModuleInputs(vars.values, flags.input ? prompter.variables() : undefined);
  const r = await loadConfigWithRootInputs(loader, ".", inputs, WORKSPACE, { cwd: workingDir });
  view.addSources(loader.parser.sources);
  diagnostics.push(...r.diagnostics);
  if (hasErrors(diagnostics) || !r.config) return { loaded: undefined, diagnostics };
  const decls = inputVariableDeclarations(r.config.module);
  let unparsed = new Map(vars.values);
  for (const [k, v] of inputs.promptAnswers()) if (!unparsed.has(k)) unparsed.set(k, v);
  unparsed = await interactiveCollectVariables(unparsed, decls, flags.input ? prompter.variables() : undefined);
  const parsed = parseVariableValues(unparsed, decls);
  diagnostics.push(...parsed.diagnostics);
  if (hasErrors(diagnostics)) return { loaded: undefined, diagnostics };

  const store = new LocalStore(path.join(workingDir, DEFAULT_STATE_FILENAME), { terraformVersion: TOFU_VERSION });
  diagnostics.push(...(await store.refresh()));
  if (hasErrors(diagnostics)) return { loaded: undefined, diagnostics };
  return { loaded: { config: r.config, variables: parsed.values, store, state: store.state() ?? new State(), loader }, diagnostics };
}

export function newContext(io: CommandIO, workingDir: string, flags: RunFlags, hooks: Hooks): Context {
  return new Context({
    providers: providerFactory(workingDir),
    parallelism: flags.parallelism,
    terraformVersion: TOFU_VERSION,
    functionFS: new NodeFunctionFileSystem(workingDir),
    cwd: workingDir,
    workspace: WORKSPACE,
    hooks,
  });
}

/** The human plan (OpenTofu's views.Plan), from the JSON plan and the schemas it was made with. */
export function renderPlan(view: View, plan: Plan, schemas: Map<string, ProviderSchemaSet>): Diagnostic[] {
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

/** Prints the outputs after an apply, as tofu does. */
export function printOutputs(view: View, state: State): void {
  const outs = [...state.rootModule().outputValues.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (outs.length === 0) return;
  view.println("[reset][bold][green]\nOutputs:\n");
  for (const o of outs) view.println(`${o.name} = ${o.sensitive ? "<sensitive>" : formatValue(o.value)}`);
}

export async function runPlan(io: CommandIO, view: View, flags: RunFlags, workingDir: string): Promise<{ result: PlanResult | undefined; loaded: LoadedWorkingDir | undefined; code: number }> {
  const prompter = new Prompter(view);
  const l = await loadWorkingDir(io, view, workingDir, flags, prompter);
  if (!l.loaded) {
    view.diagnostics(l.diagnostics);
    return { result: undefined, loaded: undefined, code: 1 };
  }
  const loaded = l.loaded;
  const ctx = newContext(io, workingDir, flags, new UIHooks(view));
  const result = await ctx.plan(loaded.config, loaded.state, { mode: flags.destroy ? "destroy" : "normal", refresh: flags.refresh, variables: loaded.variables });
  const diags = [...l.diagnostics, ...result.diagnostics];
  if (hasErrors(diags)) {
    view.diagnostics(diags);
    return { result, loaded, code: 1 };
  }
  const renderDiags = renderPlan(view, result.plan, result.schemas);
  view.diagnostics([...diags, ...renderDiags]);
  return { result, loaded, code: hasErrors(renderDiags) ? 1 : 0 };
}

export const planCommand: Command = async (args, io) => {
  const p = parseFlags(args, RUN_FLAGS);
  const early = new View(io, !args.includes("-no-color"));
  if (typeof p === "string") {
    early.diagnostics([errorDiag("Failed to parse command-line flags", p)]);
    io.stderr.write("\nFor more help on using this command, run:\n  terrace plan -help\n");
    return 1;
  }
  if (p.bools.get("help")) {
    io.stdout.write(PLAN_HELP);
    return 0;
  }
  const flags = runFlags(p);
  if (typeof flags === "string") {
    early.diagnostics([errorDiag("Invalid parallelism", flags)]);
    return 1;
  }
  if (flags.positional.length > 0) {
    early.diagnostics([errorDiag("Too many command line arguments", "To specify a working directory for the plan, use the global -chdir flag.")]);
    return 1;
  }
  const view = new View(io, flags.color);
  const workingDir = path.resolve(io.cwd);
  const { result, loaded, code } = await runPlan(io, view, flags, workingDir);
  if (code !== 0 || !result || !loaded) return code;
  const empty = changesEmpty(result.plan.changes);
  if (flags.out !== undefined) {
    const w = writePlanFile({ plan: result.plan, config: configSnapshot(loaded.loader, loaded.config, workingDir) }, { tofuVersion: TOFU_VERSION });
    if (!w.ok) {
      view.diagnostics(w.diagnostics);
      return 1;
    }
    writeFileSync(path.resolve(workingDir, flags.out), w.bytes);
    view.println(rule(view));
    view.println(`\nSaved the plan to: ${flags.out}\n\nTo perform exactly these actions, run the following command to apply:\n    terrace apply ${JSON.stringify(flags.out)}`);
  } else if (!empty) {
    view.println(rule(view));
    view.println(
      `\n[reset][yellow]Note: You didn't use the -out option to save this plan, so OpenTofu can't\nguarantee to take exactly these actions if you run "terrace apply" now.`,
    );
  }
  if (flags.detailedExitcode && !empty) return 2;
  return 0;
};
