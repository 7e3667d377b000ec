// What every command shares about the working directory (OpenTofu's command.Meta): the root
// module's variable values (-var, -var-file, TF_VAR_*, terraform.tfvars, *.auto.tfvars; a
// required one that static evaluation needs is asked for once, unless -input=false), the
// configuration loaded with static evaluation (module sources and versions, provider for_each),
// and the backend the configuration names, checked against what `init` recorded.
//
// Which comes first decides which error a user sees when a variable is missing: commands that
// load the whole configuration first (Meta.checkRequiredVersion, loadConfig) report the module
// source ("module.mod.source depends on var.src which is not available"), commands that only
// initialise the backend report its configuration ("backend.local depends on var.state_path …").
import path from "node:path";
import { Loader, RootModuleInputs, StaticEvaluator, loadConfigWithRootInputs, rootModuleCall, type Config } from "../configs/index.js";
import { collectVariableValues, type UnparsedVariableValue, type VariableArg, type VariablePrompter } from "../configs/inputvars/index.js";
import { hasErrors, type Diagnostic } from "../hcl/index.js";
import { NO_ENCRYPTION, encryptionFromModule, type Encryption } from "../encryption/index.js";
import { State, type StateStore } from "../states/index.js";
import { parseGoBool, type ParsedFlags } from "./args.js";
import { configuredBackend, type ConfiguredBackend, type RootModuleEvaluation } from "./backend_config.js";
import type { CommandIO } from "./io.js";
import { nodeConfigFS, nodeVariableFS } from "./nodefs.js";
import { Prompter } from "./prompt.js";
import { NO_LEGACY_STATE_PATHS, localBackendOptions, type LegacyStatePaths } from "./statecmd.js";
import type { View } from "./view.js";
import { currentWorkspace, openStateStore, type OpenedStore, type OpenOptions } from "./workspace.js";

/** Meta.varFlagSet: every command that reads the configuration or the backend takes these. */
export const VAR_FLAGS = ["var", "var-file"] as const;

/** The help text of those flags, as tofu's commands print it under "Options:". */
export const VAR_FLAGS_HELP = `  -var 'foo=bar'     Set a value for one of the input variables in the root
                     module of the configuration. Use this option more than
                     once to set more than one variable.

  -var-file=filename Load variable values from the given file, in addition
                     to the default files terraform.tfvars and *.auto.tfvars.
                     Use this option more than once to include more than one
                     variables file.
`;

/** The -var and -var-file options, in command-line order. */
export function variableArgs(p: ParsedFlags): VariableArg[] {
  return p.multi.filter((m) => m.name === "var" || m.name === "var-file").map((m) => ({ flag: m.name === "var" ? ("-var" as const) : ("-var-file" as const), value: m.value }));
}

/** The root module's variable values as given (unparsed), and the inputs static evaluation reads. */
export interface RootInputs {
  /** Undefined when collecting them failed (an invalid -var, an unreadable -var-file). */
  readonly inputs: RootModuleInputs | undefined;
  readonly values: ReadonlyMap<string, UnparsedVariableValue>;
  readonly diagnostics: Diagnostic[];
}

/**
 * TF_IN_AUTOMATION set to anything: OpenTofu then leaves out the next-step advice meant for a
 * person at a shell (after init, after a plan, in the plan's refresh-only hint).
 */
export function runningInAutomation(env: Readonly<Record<string, string | undefined>>): boolean {
  return (env["TF_IN_AUTOMATION"] ?? "") !== "";
}

/** Meta.Input's TF_INPUT: a value Go's ParseBool reads as false turns input off, as -input=false does. */
export function inputAllowedByEnv(env: Readonly<Record<string, string | undefined>>): boolean {
  const v = env["TF_INPUT"];
  return v === undefined || v === "" || parseGoBool(v) !== false;
}

export interface MetaOptions {
  readonly vars: readonly VariableArg[];
  /** False with -input=false (or -json): a missing required variable is then an error. */
  readonly input: boolean;
  /** -state, -state-out and -backup of plan, apply, destroy and refresh (Meta.backendCLIOpts). */
  readonly state?: LegacyStatePaths;
}

export class Meta {
  readonly workingDir: string;
  readonly prompter: Prompter;
  private inputs: RootInputs | undefined;
  private backendResult: ConfiguredBackend | undefined;
  private rootEvaluation: Promise<RootModuleEvaluation> | undefined;
  private encryptionResult: { encryption: Encryption | undefined; diagnostics: Diagnostic[] } | undefined;

  constructor(
    readonly io: CommandIO,
    /** Where prompts go and whose sources diagnostics quote. */
    readonly view: View,
    readonly options: MetaOptions,
  ) {
    this.workingDir = path.resolve(io.cwd);
    this.prompter = new Prompter(view);
  }

  /**
   * For a command's parsed flags. Only commands with an -input flag ask for values (tofu's
   * extendedFlagSet defines it, default true); for the others input is off, as Meta.input's zero
   * value is in tofu.
   */
  static fromFlags(io: CommandIO, view: View, p: ParsedFlags, input = false): Meta {
    return new Meta(io, view, { vars: variableArgs(p), input });
  }

  get workspace(): string {
    return currentWorkspace(this.io).name;
  }

  /** Meta.rootModuleCall's variables: collected once per command; an invalid -var is an error. */
  rootInputs(): RootInputs {
    if (this.inputs) return this.inputs;
    const vars = collectVariableValues({ env: this.io.env, args: this.options.vars, fs: nodeVariableFS(this.workingDir), dir: "." });
    this.view.addSources(vars.sources);
    const inputs = hasErrors(vars.diagnostics) ? undefined : new RootModuleInputs(vars.values, this.variablePrompter());
    this.inputs = { inputs, values: vars.values, diagnostics: vars.diagnostics };
    return this.inputs;
  }

  /** The prompter for variables; none when input is disabled (by the flag or by TF_INPUT). */
  variablePrompter(): VariablePrompter | undefined {
    return this.options.input && inputAllowedByEnv(this.io.env) ? this.prompter.variables() : undefined;
  }

  /** A loader over the working directory whose files diagnostics can quote. */
  loader(): Loader {
    return new Loader({ fs: nodeConfigFS(this.workingDir), workingDir: "." });
  }

  /** Meta.loadConfig: the whole configuration tree (its modules must be installed). */
  async loadConfig(): Promise<{ config: Config | undefined; loader: Loader; diagnostics: Diagnostic[] }> {
    const loader = this.loader();
    const r = this.rootInputs();
    if (!r.inputs) return { config: undefined, loader, diagnostics: r.diagnostics };
    const loaded = await loadConfigWithRootInputs(loader, ".", r.inputs, this.workspace, { cwd: this.workingDir });
    this.view.addSources(loader.parser.sources);
    return { config: loaded.config, loader, diagnostics: [...r.diagnostics, ...loaded.diagnostics] };
  }

  /**
   * Meta.checkRequiredVersion: the whole configuration must load (required_version is checked
   * while loading); only errors are kept, as tofu does.
   */
  async checkRequiredVersion(): Promise<Diagnostic[]> {
    const r = await this.loadConfig();
    return hasErrors(r.diagnostics) ? r.diagnostics.filter((d) => d.severity === "error") : [];
  }

  /**
   * The root module alone with its static evaluator (loadSingleModule as the backend needs it:
   * module calls are not decoded, so only what the caller evaluates can fail).
   */
  async rootModuleEvaluator(): Promise<RootModuleEvaluation> {
    // The backend and the encryption both read it: the directory is parsed once per command.
    this.rootEvaluation ??= this.loadRootModuleEvaluator();
    return this.rootEvaluation;
  }

  private async loadRootModuleEvaluator(): Promise<RootModuleEvaluation> {
    const r = this.rootInputs();
    if (!r.inputs) return { module: undefined, evaluator: undefined, inputs: undefined, diagnostics: r.diagnostics };
    const loader = this.loader();
    const early = loader.parser.loadConfigDir(".");
    this.view.addSources(loader.parser.sources);
    const diagnostics = [...r.diagnostics, ...early.diagnostics];
    if (!early.module || hasErrors(diagnostics)) return { module: undefined, evaluator: undefined, inputs: r.inputs, diagnostics };
    const call = rootModuleCall(r.inputs, ".", this.workspace, { cwd: this.workingDir });
    return { module: early.module, evaluator: new StaticEvaluator(early.module, call), inputs: r.inputs, diagnostics };
  }

  /**
   * Meta.Backend for every command but init: the backend the configuration names, decoded with
   * static evaluation and checked against `.terraform/terraform.tfstate` ("Backend initialization
   * required" when they differ); the implied local backend when neither names one.
   */
  async backend(): Promise<ConfiguredBackend> {
    this.backendResult ??= await configuredBackend(await this.rootModuleEvaluator(), this.io);
    return this.backendResult;
  }

  /**
   * Meta.Encryption: the root module's `encryption` block with TF_ENCRYPTION laid over it, its
   * key providers evaluated statically. Undefined (with the errors) when it cannot be built; no
   * configuration at all is no encryption.
   */
  async encryption(): Promise<{ encryption: Encryption | undefined; diagnostics: Diagnostic[] }> {
    if (this.encryptionResult) return this.encryptionResult;
    const env = this.io.env["TF_ENCRYPTION"];
    const root = await this.rootModuleEvaluator();
    const settings = root.module?.encryption?.settings;
    if (!settings && (env === undefined || env === "")) {
      this.encryptionResult = { encryption: NO_ENCRYPTION, diagnostics: [] };
    } else if (!root.evaluator || hasErrors(root.diagnostics)) {
      this.encryptionResult = { encryption: undefined, diagnostics: root.diagnostics };
    } else {
      const sources = new Map<string, string>();
      const r = encryptionFromModule(settings, this.io.env, root.evaluator, sources);
      this.view.addSources(sources);
      this.encryptionResult = { encryption: hasErrors(r.diagnostics) ? undefined : r.encryption, diagnostics: r.diagnostics };
    }
    return this.encryptionResult;
  }

  /**
   * Backend.StateMgr for the selected workspace (or the -state file), once the backend is known.
   * The options' -state paths, if any, are laid over those the local backend got from the command.
   */
  async openStateStore(opts: OpenOptions = {}): Promise<{ opened: OpenedStore | undefined; diagnostics: Diagnostic[] }> {
    const b = await this.backend();
    if (!b.backend) return { opened: undefined, diagnostics: b.diagnostics };
    const e = await this.encryption();
    if (!e.encryption) return { opened: undefined, diagnostics: e.diagnostics };
    const overrides = localBackendOptions(b.backend, this.options.state ?? NO_LEGACY_STATE_PATHS);
    const o = openStateStore(this.io, b.backend, { ...overrides, ...opts, encryption: e.encryption.state });
    return { opened: o.opened, diagnostics: [...e.diagnostics, ...o.diagnostics] };
  }

  /** The selected workspace's store, refreshed, and its state (empty when there is none yet). */
  async readState(): Promise<{ read: { store: StateStore; state: State } | undefined; diagnostics: Diagnostic[] }> {
    const o = await this.openStateStore();
    if (!o.opened) return { read: undefined, diagnostics: o.diagnostics };
    const store = o.opened.store;
    const diagnostics = [...o.diagnostics, ...(await store.refresh())];
    if (hasErrors(diagnostics)) return { read: undefined, diagnostics };
    return { read: { store, state: store.state() ?? new State() }, diagnostics };
  }
}
