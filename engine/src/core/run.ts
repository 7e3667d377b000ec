// What every node of one walk shares (OpenTofu's ContextGraphWalker + BuiltinEvalContext): the
// configuration, the state being built, the changes, the expander, named values (variables,
// locals, module outputs), provider instances and function tables.
import type { DeprecationWarningLevel } from "./deprecation.js";
import { NoKey, type AbsResourceInstance, type ConfigResource, type InstanceKey, type ModuleInstance, type Targetable } from "../addrs/index.js";
import { descendent, type Config } from "../configs/index.js";
import type { Diagnostic } from "../hcl/index.js";
import type { FunctionFileSystem } from "../lang/functions/index.js";
import { staticFunctionTable } from "../configs/index.js";
import type { DeposedKey, SyncState } from "../states/index.js";
import type { Func, Value } from "../values/index.js";
import { EphemeralResources } from "./ephemeral.js";
import { Expander } from "./expand.js";
import { ImportResolver } from "./import.js";
import { functionProviderKey } from "./instance.js";
import { ModuleFunctionTable, hasKeyedFunctionProvider, type FunctionProviders } from "./provider_functions.js";
import type { Hooks } from "./hooks.js";
import type { OutputChange, ResourceInstanceChange } from "../plans/index.js";
import type { ProviderManager } from "./providers.js";
import type { ProviderMove } from "../refactoring/index.js";

export type Operation = "plan" | "apply";

/** Variables, locals and outputs by module instance (OpenTofu's namedvals.State). */
export class NamedValues {
  private readonly values = new Map<string, Value>();

  private static key(kind: "var" | "local" | "output", module: ModuleInstance, name: string): string {
    return `${module.toString()}|${kind}|${name}`;
  }

  set(kind: "var" | "local" | "output", module: ModuleInstance, name: string, v: Value): void {
    this.values.set(NamedValues.key(kind, module, name), v);
  }

  get(kind: "var" | "local" | "output", module: ModuleInstance, name: string): Value | undefined {
    return this.values.get(NamedValues.key(kind, module, name));
  }
}

/** The changes of a walk, by instance (OpenTofu's plans.ChangesSync). */
export class ChangesSync {
  private readonly byKey = new Map<string, ResourceInstanceChange>();

  constructor(initial: readonly ResourceInstanceChange[] = []) {
    for (const c of initial) this.append(c);
  }

  private static key(addr: AbsResourceInstance, deposed: DeposedKey): string {
    return `${addr.toString()}|${deposed}`;
  }

  append(c: ResourceInstanceChange): void {
    this.byKey.set(ChangesSync.key(c.addr, c.deposedKey), c);
  }

  get(addr: AbsResourceInstance, deposed: DeposedKey = ""): ResourceInstanceChange | undefined {
    return this.byKey.get(ChangesSync.key(addr, deposed));
  }

  /** Every change, ordered by address then deposed key (the order plans list them in). */
  all(): ResourceInstanceChange[] {
    return [...this.byKey.values()].sort((a, b) => a.addr.compare(b.addr) || (a.deposedKey < b.deposedKey ? -1 : a.deposedKey > b.deposedKey ? 1 : 0));
  }
}

export interface RunOptions {
  readonly operation: Operation;
  /** A destroy plan (or the apply of one). */
  readonly destroy: boolean;
  readonly refresh: boolean;
  /** Refresh-only plan (OpenTofu's skipPlanChanges): objects are refreshed, no change is planned. */
  readonly refreshOnly: boolean;
  /**
   * The normal plan a destroy plan starts with, to refresh what it will destroy (OpenTofu's
   * preDestroyRefresh): resource conditions that fail are warnings, as in a refresh-only plan.
   */
  readonly preDestroyRefresh?: boolean;
  /**
   * The destroy walk after that refresh: objects in state are refreshed and upgraded already, so
   * the walk reads them for its changes without recording them again (OpenTofu's
   * NodePlanDestroyableResourceInstance writes them only when refreshing was skipped).
   */
  readonly priorRefreshed?: boolean;
  /** `-replace` addresses (not pre-filtered: each instance looks for itself). */
  readonly forceReplace: readonly AbsResourceInstance[];
  /** `-target` and `-exclude` addresses, for the graph and the plan. */
  readonly targets: readonly Targetable[];
  readonly excludes: readonly Targetable[];
  readonly workspace: string;
  /** path.cwd (absolute). */
  readonly cwd: string;
  readonly functionFS: FunctionFileSystem;
  readonly planTimestamp: Date;
  readonly hooks: Hooks;
  /** Which module calls are warned for setting a deprecated variable (`-deprecation`). */
  readonly deprecationWarnings?: DeprecationWarningLevel;
}

export class RunState {
  readonly expander = new Expander();
  readonly values = new NamedValues();
  readonly diagnostics: Diagnostic[] = [];
  /** Plan: the changes of root outputs, in the order they were evaluated. */
  readonly outputChanges: OutputChange[] = [];
  /**
   * Plan: the non-root outputs evaluated. OpenTofu records each as an output change, kept out of
   * the plan file: a Create when it has a value (a module output has no value in state to compare
   * with), from which relevant attributes are followed as from root output changes; a NoOp when
   * null. Any change at all makes an errored plan worth showing.
   */
  readonly childOutputChanges: { readonly module: ModuleInstance; readonly name: string; readonly created: boolean }[] = [];
  /** Child module variable instances ("module instance|name") whose value converted cleanly, for their validation node. */
  readonly validatable = new Set<string>();
  /** Plan: each root variable's conversion and validation errors, reported by its node in the walk. */
  readonly rootVariableDiagnostics = new Map<string, Diagnostic[]>();
  /**
   * The resources each node depends on (by node name), recorded in state: apply nodes when they
   * apply, resource nodes of a plan for instances that plan NoOp.
   */
  readonly dependencies = new Map<string, ConfigResource[]>();
  /** CreateThenDelete: the key each instance's old object was deposed under during apply. */
  readonly deposedDuringApply = new Map<string, DeposedKey>();
  /**
   * Resources forced into create_before_destroy because something depending on them is
   * (OpenTofu's ForcedCBDTransformer), by "module path|resource" key (see cbdKey).
   */
  readonly forcedCBD = new Set<string>();
  /**
   * Plan: objects an explicit `moved` block gave another type or provider, by new address
   * (uniqueKey); their prior objects are read with MoveResourceState, not upgraded.
   */
  readonly providerMoves = new Map<string, ProviderMove>();
  private readonly functionTables = new Map<string, ReadonlyMap<string, Func>>();
  /** Whether a module's calls need a table per instance (hasKeyedFunctionProvider), by static path. */
  private readonly keyedFunctionModules = new Map<string, boolean>();
  /** The walk's ephemeral resource instances: their values and those still open. */
  readonly ephemerals: EphemeralResources;

  constructor(
    readonly config: Config,
    /** Plan: the refreshed state (the plan's prior state); apply: the state being built. */
    readonly state: SyncState,
    readonly changes: ChangesSync,
    readonly providers: ProviderManager,
    readonly opts: RunOptions,
    /** Plan: the previous run's state with objects upgraded to current schemas, not refreshed. */
    readonly prevRunState: SyncState | undefined = undefined,
    /**
     * A destroy's apply: the state before it, which expressions read objects from (a provider
     * configured from a module output still sees the objects its destroy removes).
     */
    readonly destroyReads: SyncState | undefined = undefined,
  ) {
    this.ephemerals = new EphemeralResources(opts.hooks);
  }

  /** Whether the resource (static module path + resource address) must be create_before_destroy. */
  createBeforeDestroy(module: readonly string[], resource: string, configured: boolean): boolean {
    return configured || this.forcedCBD.has(cbdKey(module, resource));
  }

  moduleConfig(path: readonly string[]): Config | undefined {
    return descendent(this.config, path);
  }

  /**
   * A module's functions: the built-in ones (file functions resolve against its directory) and
   * the provider-defined ones its calls name.
   */
  functions(path: readonly string[], instance?: ModuleInstance): ReadonlyMap<string, Func> {
    // One table per module instance where a configuration serving its calls was passed in with a
    // key (each instance may evaluate it differently); one per module otherwise.
    const moduleKey = path.join(".");
    let keyed = this.keyedFunctionModules.get(moduleKey);
    if (keyed === undefined) {
      const cfg = this.moduleConfig(path);
      this.keyedFunctionModules.set(moduleKey, (keyed = cfg !== undefined && hasKeyedFunctionProvider(cfg)));
    }
    const perInstance = keyed ? instance : undefined;
    const k = perInstance ? `${moduleKey}|${perInstance.toString()}` : moduleKey;
    let t = this.functionTables.get(k);
    if (!t) {
      const cfg = this.moduleConfig(path);
      const builtins = staticFunctionTable({ baseDir: cfg?.module.sourceDir ?? ".", fs: this.opts.functionFS, planTimestamp: this.opts.planTimestamp });
      t = cfg ? new ModuleFunctionTable(builtins, cfg, this.functionProviders, false, perInstance) : builtins;
      this.functionTables.set(k, t);
    }
    return t;
  }

  /** Where the function tables find providers: the run's, keys evaluated in the walk. */
  private readonly functionProviders: FunctionProviders = {
    functionInstance: (p) => this.providers.functionInstance(p),
    instance: (addr, key) => this.providers.instance(addr, key),
    providerSchema: (p) => this.providers.providerSchema(p),
    functionsOf: (i) => this.providers.functionsOf(i),
    providerKey: (expr, keyModule, caller, what) => functionProviderKey(this, expr, keyModule, caller, what),
  };

  /** The provider instance key resolved for each resource instance (provider for_each). */
  readonly providerKeys = new Map<string, InstanceKey>();

  /** Plan and `terrace import`: the import targets resolved so far (import.ts). */
  readonly imports = new ImportResolver();

  providerKeyFor(addr: AbsResourceInstance): InstanceKey {
    return this.providerKeys.get(addr.toString()) ?? NoKey;
  }
}

/** The key of RunState.forcedCBD. */
export function cbdKey(module: readonly string[], resource: string): string {
  return `${module.join(".")}|${resource}`;
}
