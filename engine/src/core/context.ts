// The entry points (OpenTofu's tofu.Context: context_plan.go and context_apply.go): plan a
// configuration against a state, and apply a plan. Each run loads the provider schemas it needs,
// builds its graph, walks it with the parallelism limit, and closes every provider instance it
// started.
import { RootModuleInstance, type Provider as ProviderAddr } from "../addrs/index.js";
import { allConfigs, inputVariableDeclarations, type Config } from "../configs/index.js";
import { finalizeInputVariables, type InputValue } from "../configs/inputvars/index.js";
import { hasErrors, type Diagnostic } from "../hcl/index.js";
import { walk, type VertexOutcome } from "../graph/index.js";
import type { FunctionFileSystem } from "../lang/functions/index.js";
import { SyncState, type State } from "../states/index.js";
import type { Value } from "../values/index.js";
import { applyTransformers, buildGraph, planTransformers } from "./builder.js";
import { deletedOutputChange, executeNode } from "./execute.js";
import { nodeName, type GraphNode } from "./nodes.js";
import { changesEmpty, newPlan, type Plan, type ProviderSchemaSet } from "../plans/index.js";
import type { Hooks } from "./hooks.js";
import { ProviderManager, type ProviderFactory } from "./providers.js";
import { ChangesSync, RunState, type Operation } from "./run.js";
import { resourceDependencies, type BuildContext, type Graph } from "./transform.js";

export const DEFAULT_PARALLELISM = 10;

const NO_FILES: FunctionFileSystem = {
  readFile: () => undefined,
  isFile: () => false,
  isDirectory: () => false,
  readDir: () => [],
  abs: (p) => p,
  home: () => undefined,
};

export interface ContextOptions {
  /** Starts provider instances. */
  readonly providers: ProviderFactory;
  /** The most graph nodes at work at once (`-parallelism`). */
  readonly parallelism?: number;
  /** Sent to providers in ConfigureProvider. */
  readonly terraformVersion?: string;
  /** What file functions (`file`, `templatefile`, ...) read. */
  readonly functionFS?: FunctionFileSystem;
  /** path.cwd. */
  readonly cwd?: string;
  readonly workspace?: string;
  /** Progress callbacks (the CLI's "Refreshing state...", "Creating..." lines). */
  readonly hooks?: Hooks;
}

export interface PlanOptions {
  readonly mode?: "normal" | "destroy";
  /** False skips ReadResource on prior objects (`-refresh=false`). */
  readonly refresh?: boolean;
  /** Root module variables as the caller set them (unset ones take their defaults). */
  readonly variables?: ReadonlyMap<string, InputValue>;
}

export interface ApplyOptions {
  /** Called with snapshots of the state while the apply runs (at most once per `persistIntervalMs`). */
  readonly persist?: (state: State) => Promise<Diagnostic[]>;
  readonly persistIntervalMs?: number;
}

export interface PlanResult {
  readonly plan: Plan;
  readonly diagnostics: Diagnostic[];
  /** The provider schemas the plan was made with, for rendering and `show -json`. */
  readonly schemas: Map<string, ProviderSchemaSet>;
}

export class Context {
  constructor(private readonly opts: ContextOptions) {}

  private newRun(op: Operation, destroy: boolean, refresh: boolean, config: Config, state: SyncState, changes: ChangesSync, providers: ProviderManager, timestamp: Date): RunState {
    return new RunState(config, state, changes, providers, {
      operation: op,
      destroy,
      refresh,
      workspace: this.opts.workspace ?? "default",
      cwd: this.opts.cwd ?? ".",
      functionFS: this.opts.functionFS ?? NO_FILES,
      planTimestamp: timestamp,
      hooks: this.opts.hooks ?? {},
    });
  }

  /** Every provider the configuration and state need (for their schemas). */
  private providersNeeded(config: Config, state: State, extra: Iterable<ProviderAddr> = []): ProviderAddr[] {
    const out = new Map<string, ProviderAddr>();
    const add = (p: ProviderAddr | undefined) => {
      if (p) out.set(p.toString(), p);
    };
    for (const c of allConfigs(config)) {
      for (const r of c.module.managedResources.values()) add(r.provider);
      for (const r of c.module.dataResources.values()) add(r.provider);
      for (const p of c.module.providerConfigs.values()) add(p.providerType);
    }
    for (const ms of state.modules.values()) for (const rs of ms.resources.values()) add(rs.providerConfig?.provider);
    for (const p of extra) add(p);
    return [...out.values()];
  }

  /** Root variables: defaults, conversion, validation (OpenTofu's checkInputVariables + eval_variable). */
  private rootVariables(run: RunState, config: Config, inputs: ReadonlyMap<string, InputValue>): Diagnostic[] {
    const decls = inputVariableDeclarations(config.module);
    const fin = finalizeInputVariables(decls, inputs, { functions: run.functions([]) });
    for (const [name, v] of fin.values) run.values.set("var", RootModuleInstance, name, v);
    return fin.diagnostics;
  }

  private async walkGraph(run: RunState, graph: Graph, onProgress?: () => void): Promise<Diagnostic[]> {
    const result = await walk<GraphNode, Diagnostic[]>(graph, (n, wctx) => executeNode(run, n, wctx), {
      parallelism: this.opts.parallelism ?? DEFAULT_PARALLELISM,
      isFailure: (r) => hasErrors(r),
      ...(onProgress ? { onProgress } : {}),
    });
    const diagnostics: Diagnostic[] = [];
    for (const o of result.outcomes) diagnostics.push(...outcomeDiagnostics(o));
    return diagnostics;
  }

  async plan(config: Config, prevRunState: State, opts: PlanOptions = {}): Promise<PlanResult> {
    const destroy = opts.mode === "destroy";
    const timestamp = new Date();
    const providers = new ProviderManager(this.opts.providers, this.opts.terraformVersion ?? "1.11.0");
    const state = new SyncState(prevRunState.deepCopy());
    const run = this.newRun("plan", destroy, opts.refresh ?? true, config, state, new ChangesSync(), providers, timestamp);
    const diagnostics: Diagnostic[] = [];
    const errored = (): PlanResult => ({
      plan: newPlan({ uiMode: destroy ? "destroy" : "normal", prevRunState: prevRunState.deepCopy(), priorState: prevRunState.deepCopy(), errored: true, timestamp }),
      diagnostics,
      schemas: providers.schemaSets(),
    });
    try {
      diagnostics.push(...(await providers.loadSchemas(this.providersNeeded(config, prevRunState))));
      if (hasErrors(diagnostics)) return errored();
      diagnostics.push(...this.rootVariables(run, config, opts.variables ?? new Map()));
      if (hasErrors(diagnostics)) return errored();
      const b: BuildContext = { config, state: prevRunState, providers, destroy, changes: [] };
      const built = buildGraph(b, planTransformers(destroy));
      diagnostics.push(...built.diagnostics);
      if (hasErrors(diagnostics)) return errored();
      diagnostics.push(...(await this.walkGraph(run, built.graph)));

      const outputs = [...run.outputChanges];
      const declared = config.module.outputs;
      for (const name of [...prevRunState.rootModule().outputValues.keys()].sort()) {
        if (!destroy && declared.has(name)) continue;
        const d = deletedOutputChange(run, name);
        if (d) outputs.push(d);
      }
      outputs.sort((a, c) => (a.addr.outputValue.name < c.addr.outputValue.name ? -1 : a.addr.outputValue.name > c.addr.outputValue.name ? 1 : 0));
      const variableValues = new Map<string, Value>();
      for (const [name, iv] of opts.variables ?? []) if (iv.value !== undefined) variableValues.set(name, iv.value);
      const isErrored = hasErrors(diagnostics);
      const plan = newPlan({
        uiMode: destroy ? "destroy" : "normal",
        variableValues,
        changes: { resources: run.changes.all(), outputs },
        priorState: state.close(),
        prevRunState: prevRunState.deepCopy(),
        timestamp,
        errored: isErrored,
      });
      plan.applyable = !isErrored && !changesEmpty(plan.changes);
      return { plan, diagnostics, schemas: providers.schemaSets() };
    } finally {
      await providers.close();
    }
  }

  async apply(plan: Plan, config: Config, opts: ApplyOptions = {}): Promise<{ state: State; diagnostics: Diagnostic[] }> {
    const destroy = plan.uiMode === "destroy";
    const providers = new ProviderManager(this.opts.providers, this.opts.terraformVersion ?? "1.11.0");
    const state = new SyncState(plan.priorState.deepCopy());
    const run = this.newRun("apply", destroy, false, config, state, new ChangesSync(plan.changes.resources), providers, plan.timestamp);
    const diagnostics: Diagnostic[] = [];
    const interval = opts.persistIntervalMs ?? 20_000;
    let lastPersist = Date.now();
    let persisting: Promise<void> = Promise.resolve();
    const checkpoint = () => {
      if (!opts.persist || Date.now() - lastPersist < interval) return;
      lastPersist = Date.now();
      const snapshot = state.snapshot();
      const persist = opts.persist;
      persisting = persisting.then(async () => {
        diagnostics.push(...(await persist(snapshot)).filter((d) => d.severity === "warning"));
      });
    };
    try {
      diagnostics.push(...(await providers.loadSchemas(this.providersNeeded(config, plan.priorState, plan.changes.resources.map((c) => c.providerAddr.provider)))));
      if (hasErrors(diagnostics)) return { state: state.close(), diagnostics };
      const inputs = new Map<string, InputValue>();
      for (const [name, v] of plan.variableValues) inputs.set(name, { value: v, sourceType: "input" });
      diagnostics.push(...this.rootVariables(run, config, inputs));
      if (hasErrors(diagnostics)) return { state: state.close(), diagnostics };
      const b: BuildContext = { config, state: plan.priorState, providers, destroy, changes: plan.changes.resources };
      const built = buildGraph(b, applyTransformers(destroy));
      diagnostics.push(...built.diagnostics);
      if (hasErrors(diagnostics)) return { state: state.close(), diagnostics };
      for (const n of built.graph.vertices()) if (n.kind === "applyInstance") run.dependencies.set(nodeName(n), resourceDependencies(built.graph, n));
      diagnostics.push(...(await this.walkGraph(run, built.graph, checkpoint)));
      await persisting;
      // Root outputs the configuration no longer declares (all of them after a destroy).
      for (const name of [...(state.withState((s) => [...s.rootModule().outputValues.keys()]))]) {
        if (destroy || !config.module.outputs.has(name)) state.removeOutputValue(name);
      }
      return { state: state.close(), diagnostics };
    } finally {
      await persisting.catch(() => undefined);
      await providers.close();
    }
  }
}

function outcomeDiagnostics(o: VertexOutcome<GraphNode, Diagnostic[]>): Diagnostic[] {
  switch (o.status) {
    case "succeeded":
      return o.result;
    case "failed":
      if (o.result) return o.result;
      return [
        {
          severity: "error",
          summary: "Internal error",
          detail: `${nodeName(o.vertex)}: ${o.error instanceof Error ? (o.error.stack ?? o.error.message) : String(o.error)}`,
        },
      ];
    case "skipped":
    case "canceled":
      return [];
  }
}
