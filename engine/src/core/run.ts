// What every node of one walk shares (OpenTofu's ContextGraphWalker + BuiltinEvalContext): the
// configuration, the state being built, the changes, the expander, named values (variables,
// locals, module outputs), provider instances and function tables.
import { NoKey, type AbsResourceInstance, type ConfigResource, type InstanceKey, type ModuleInstance } from "../addrs/index.js";
import { descendent, type Config } from "../configs/index.js";
import type { Diagnostic } from "../hcl/index.js";
import type { FunctionFileSystem } from "../lang/functions/index.js";
import { staticFunctionTable } from "../configs/index.js";
import type { DeposedKey, SyncState } from "../states/index.js";
import type { Func, Value } from "../values/index.js";
import { Expander } from "./expand.js";
import type { Hooks } from "./hooks.js";
import type { OutputChange, ResourceInstanceChange } from "../plans/index.js";
import type { ProviderManager } from "./providers.js";

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
  readonly workspace: string;
  /** path.cwd (absolute). */
  readonly cwd: string;
  readonly functionFS: FunctionFileSystem;
  readonly planTimestamp: Date;
  readonly hooks: Hooks;
}

export class RunState {
  readonly expander = new Expander();
  readonly values = new NamedValues();
  readonly diagnostics: Diagnostic[] = [];
  /** Plan: the changes of root outputs, in the order they were evaluated. */
  readonly outputChanges: OutputChange[] = [];
  /** Apply: the resources each apply node depends on (by node name), recorded in state. */
  readonly dependencies = new Map<string, ConfigResource[]>();
  /** CreateThenDelete: the key each instance's old object was deposed under during apply. */
  readonly deposedDuringApply = new Map<string, DeposedKey>();
  private readonly functionTables = new Map<string, ReadonlyMap<string, Func>>();

  constructor(
    readonly config: Config,
    readonly state: SyncState,
    readonly changes: ChangesSync,
    readonly providers: ProviderManager,
    readonly opts: RunOptions,
  ) {}

  moduleConfig(path: readonly string[]): Config | undefined {
    return descendent(this.config, path);
  }

  /** The built-in functions for a module (file functions resolve against its directory). */
  functions(path: readonly string[]): ReadonlyMap<string, Func> {
    const k = path.join(".");
    let t = this.functionTables.get(k);
    if (!t) {
      const dir = this.moduleConfig(path)?.module.sourceDir ?? ".";
      t = staticFunctionTable({ baseDir: dir, fs: this.opts.functionFS, planTimestamp: this.opts.planTimestamp });
      this.functionTables.set(k, t);
    }
    return t;
  }

  /** The provider instance key resolved for each resource instance (provider for_each). */
  readonly providerKeys = new Map<string, InstanceKey>();

  providerKeyFor(addr: AbsResourceInstance): InstanceKey {
    return this.providerKeys.get(addr.toString()) ?? NoKey;
  }
}
