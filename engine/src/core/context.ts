// The entry points (OpenTofu's tofu.Context: context_plan.go and context_apply.go): plan a
// configuration against a state, and apply a plan. Each run loads the provider schemas it needs,
// builds its graph, walks it with the parallelism limit, and closes every provider instance it
// started.
import {
  AbsModuleCall,
  AbsResource,
  ModuleCall,
  Resource as ResourceAddr,
  RootModuleInstance,
  uniqueKey,
  type AbsResourceInstance,
  type Targetable,
} from "../addrs/index.js";
import { allConfigs, inputVariableDeclarations, resourceAddrString, type Config } from "../configs/index.js";
import { finalizeInputVariables, type InputValue } from "../configs/inputvars/index.js";
import { hasErrors, type Diagnostic } from "../hcl/index.js";
import { walk, type VertexOutcome, type WalkContext, type WalkProgress } from "../graph/index.js";
import { coreLog } from "../logging/index.js";
import type { FunctionFileSystem } from "../lang/functions/index.js";
import { SyncState, type State, type StateObserver } from "../states/index.js";
import { goQuote, type Value } from "../values/index.js";
import { applyTransformers, buildGraph, planTransformers } from "./builder.js";
import { deletedOutputChange, executeNode } from "./execute.js";
import { nodeName, type GraphNode } from "./nodes.js";
import { newPlan, planCanApply, type Plan, type ProviderSchemaSet } from "../plans/index.js";
import { driftedResources, managedResourcesEqual } from "./drift.js";
import { relevantAttributes } from "./relevance.js";
import { forcedCreateBeforeDestroy } from "./cbd.js";
import { forgottenByDestroyDiagnostics } from "./removed.js";
import type { Hooks } from "./hooks.js";
import { reportVariableCheckables, reportVariableValidations, runChecks } from "./checks.js";
import { appliedTargetingWarning, targetingActive, targetingWarning, verifyTargetedMoves } from "./targeting.js";
import { expansionKeys } from "./expand.js";
import { InstanceSet, finishMoves, prepareMoves, type PreparedMoves } from "../refactoring/index.js";
import { ProviderManager, providersNeeded, type ProviderFactory, type ResourceInstanceProvider } from "./providers.js";
import { ChangesSync, RunState, type Operation, type RunOptions } from "./run.js";
import { postExpansionImportValidation, validateImportTargets, type ImportOpts } from "./import.js";
import { generationTargets } from "./import_generate.js";
import { resourceDependencies, type BuildContext, type Graph } from "./transform.js";
import { staticValidation, validateBodies, validateConfig, type SchemaValidateOptions } from "./validate.js";
import type { DeprecationWarningLevel } from "./deprecation.js";
import { refersBeyondVariables } from "./conditions.js";
import { recordDataDependsOn } from "./plan_data.js";

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
  /** Which module calls are warned for setting a deprecated variable (`-deprecation=module:…`). */
  readonly deprecationWarnings?: DeprecationWarningLevel;
  /** Progress callbacks (the CLI's "Refreshing state...", "Creating..." lines). */
  readonly hooks?: Hooks;
  /** Stands in for the provider instance of chosen resource instances (`test`'s overrides). */
  readonly resourceProvider?: ResourceInstanceProvider;
}

export interface PlanOptions {
  /** "refresh-only" refreshes every object and plans no change (`-refresh-only`). */
  readonly mode?: "normal" | "destroy" | "refresh-only";
  /** False skips ReadResource on prior objects (`-refresh=false`). */
  readonly refresh?: boolean;
  /** Root module variables as the caller set them (unset ones take their defaults). */
  readonly variables?: ReadonlyMap<string, InputValue>;
  /** Instances to replace even when an update would do (`-replace`). */
  readonly replace?: readonly AbsResourceInstance[];
  /** Only these objects and what they depend on (`-target`). */
  readonly targets?: readonly Targetable[];
  /** Everything but these objects and what depends on them (`-exclude`). */
  readonly excludes?: readonly Targetable[];
  /**
   * `-generate-config-out`: import blocks whose resource has no block get configuration
   * generated from the imported object (import_generate.ts); the file it is for, as given.
   */
  readonly generateConfigPath?: string;
}

export interface ApplyOptions {
  /** Called with snapshots of the state while the apply runs (at most once per `persistIntervalMs`). */
  readonly persist?: (state: State) => Promise<Diagnostic[]>;
  readonly persistIntervalMs?: number;
  /** Sees every state change as the walk makes it (the local store's apply journal). */
  readonly observer?: StateObserver;
  /** A destroy that forgets objects (`destroy = false`) succeeds (`-suppress-forget-errors`). */
  readonly suppressForgetErrors?: boolean;
}

interface RunParts {
  readonly config: Config;
  readonly state: SyncState;
  readonly prevRunState?: SyncState;
  readonly destroyReads?: SyncState;
  readonly changes: ChangesSync;
  readonly providers: ProviderManager;
  readonly timestamp: Date;
}

export interface PlanResult {
  readonly plan: Plan;
  readonly diagnostics: Diagnostic[];
  /** The provider schemas the plan was made with, for rendering and `show -json`. */
  readonly schemas: Map<string, ProviderSchemaSet>;
  /**
   * The plan came out of the graph walk (errored or not), rather than stopping before it: an
   * errored one is still shown and saved by `plan`, as OpenTofu's local backend does.
   */
  readonly walked?: boolean;
  /** The walk planned a change of a resource or of an output of some module (apply shows an errored plan only then). */
  readonly hasChanges?: boolean;
}

export class Context {
  constructor(private readonly opts: ContextOptions) {}

  /** OpenTofu's Context.Validate: references, then bodies against provider schemas and the providers' Validate* calls. */
  async validate(config: Config): Promise<{ diagnostics: Diagnostic[] }> {
    return { diagnostics: await validateConfig(config, this.validateOptions()) };
  }

  private validateOptions(): SchemaValidateOptions {
    const o = this.opts;
    return {
      providers: o.providers,
      ...(o.functionFS ? { functionFS: o.functionFS } : {}),
      ...(o.workspace ? { workspace: o.workspace } : {}),
      ...(o.cwd ? { cwd: o.cwd } : {}),
      ...(o.deprecationWarnings ? { deprecationWarnings: o.deprecationWarnings } : {}),
    };
  }

  private newRun(op: Operation, opts: Pick<RunOptions, "destroy" | "refresh" | "refreshOnly" | "preDestroyRefresh" | "priorRefreshed" | "forceReplace" | "targets" | "excludes">, parts: RunParts): RunState {
    return new RunState(
      parts.config,
      parts.state,
      parts.changes,
      parts.providers,
      {
        operation: op,
        ...opts,
        workspace: this.opts.workspace ?? "default",
        cwd: this.opts.cwd ?? ".",
        functionFS: this.opts.functionFS ?? NO_FILES,
        planTimestamp: parts.timestamp,
        hooks: this.opts.hooks ?? {},
        ...(this.opts.deprecationWarnings ? { deprecationWarnings: this.opts.deprecationWarnings } : {}),
      },
      parts.prevRunState,
      parts.destroyReads,
    );
  }

  /**
   * Root variables: defaults, conversion, validation (OpenTofu's checkInputVariables + eval_variable).
   * `inWalk`: a plan reports a variable's conversion and validation errors from its node in the
   * walk, as OpenTofu's NodeRootVariable does, so what does not refer to it is still planned; a
   * variable with no value fails before the walk either way.
   */
  private rootVariables(run: RunState, config: Config, inputs: ReadonlyMap<string, InputValue>, inWalk = false): Diagnostic[] {
    const decls = inputVariableDeclarations(config.module);
    // Rules that refer to more than variables run in the walk (variableValidation nodes).
    const fin = finalizeInputVariables(decls, inputs, { functions: run.functions([]) }, refersBeyondVariables);
    for (const [name, v] of fin.values) {
      run.values.set("var", RootModuleInstance, name, v);
      run.validatable.add(`${RootModuleInstance.toString()}|${name}`);
    }
    const upFront: Diagnostic[] = [];
    for (const [name, diags] of fin.byName) {
      if (inWalk && !fin.unset.has(name)) run.rootVariableDiagnostics.set(name, diags);
      else upFront.push(...diags);
    }
    // Variables with validation rules are checkable objects: their results reach the plan and state.
    for (const [name, decl] of decls) {
      if (decl.validations.length === 0) continue;
      reportVariableCheckables(run, [], name, [RootModuleInstance]);
      const ran = decl.validations.flatMap((rule, i) => (refersBeyondVariables(rule) ? [] : [i]));
      reportVariableValidations(run, RootModuleInstance, name, ran, fin.checks.get(name) ?? []);
    }
    return upFront;
  }

  private async walkGraph(run: RunState, graph: Graph, onProgress?: () => void): Promise<Diagnostic[]> {
    // The hooks see the walk's counts too (the CLI's progress line).
    const walkProgress = this.opts.hooks?.walkProgress?.bind(this.opts.hooks);
    const progress =
      onProgress || walkProgress
        ? (p: WalkProgress) => {
            onProgress?.();
            walkProgress?.(p.done, p.total);
          }
        : undefined;
    const log = coreLog();
    log.debug(`Starting graph walk: walk${run.opts.operation[0]?.toUpperCase()}${run.opts.operation.slice(1)}`);
    const visit = log.enabled("trace")
      ? async (n: GraphNode, wctx: WalkContext<GraphNode>): Promise<Diagnostic[]> => {
          const name = goQuote(nodeName(n));
          log.trace(`vertex ${name}: starting visit (${n.kind})`);
          const r = await executeNode(run, n, wctx);
          log.trace(`vertex ${name}: visit complete${hasErrors(r) ? ", with errors" : ""}`);
          return r;
        }
      : (n: GraphNode, wctx: WalkContext<GraphNode>) => executeNode(run, n, wctx);
    const result = await walk<GraphNode, Diagnostic[]>(graph, visit, {
      parallelism: this.opts.parallelism ?? DEFAULT_PARALLELISM,
      isFailure: (r) => hasErrors(r),
      ...(progress ? { onProgress: progress } : {}),
    });
    const diagnostics: Diagnostic[] = [];
    for (const o of result.outcomes) diagnostics.push(...outcomeDiagnostics(o));
    // Ephemeral instances whose close node did not run (skipped after a failure, or pruned).
    diagnostics.push(...(await run.ephemerals.closeAll()));
    return diagnostics;
  }

  async plan(config: Config, prevRunState: State, opts: PlanOptions = {}): Promise<PlanResult> {
    if (opts.mode !== "destroy" || opts.refresh === false || prevRunState.empty()) return this.planWalk(config, prevRunState, opts);
    // OpenTofu's destroyPlan: a normal plan refreshes first, so the destroy walk sees what is left
    // (and reads the data sources, and refreshes what targets depend on). Its warnings would
    // repeat the destroy walk's, so they are shown only with its errors.
    const refresh = await this.planWalk(config, prevRunState, { ...opts, mode: "normal" }, "pre-destroy refresh");
    if (hasErrors(refresh.diagnostics)) {
      const { plan, schemas } = refresh;
      return { plan: { ...plan, uiMode: "destroy", changes: { resources: [], outputs: [] }, errored: true, complete: false }, diagnostics: refresh.diagnostics, schemas };
    }
    const destroy = await this.planWalk(config, refresh.plan.priorState, { ...opts, refresh: false }, "destroy after refresh");
    // The previous run state is the one before refreshing, not the refreshed one the walk started from.
    destroy.plan.prevRunState = refresh.plan.prevRunState;
    return destroy;
  }

  /**
   * One plan walk. A destroy plan that refreshes takes two (plan()): the "pre-destroy refresh",
   * a normal plan whose failing resource conditions are warnings, then the "destroy after
   * refresh" from its refreshed state, which neither validates again nor records the objects it
   * reads (they are in that state already, upgraded and refreshed).
   */
  private async planWalk(givenConfig: Config, prevRunState: State, opts: PlanOptions, step?: "pre-destroy refresh" | "destroy after refresh"): Promise<PlanResult> {
    const mode = opts.mode ?? "normal";
    // Import targets that get generated configuration are planned through stand-in resources.
    const generation =
      mode === "normal" && opts.generateConfigPath
        ? generationTargets(givenConfig, opts.generateConfigPath, (key) => prevRunState.rootModule().resources.has(key))
        : undefined;
    const config = generation?.config ?? givenConfig;
    const destroy = mode === "destroy";
    const timestamp = new Date();
    const providers = new ProviderManager(this.opts.providers, this.opts.terraformVersion ?? "1.11.0", this.opts.resourceProvider);
    const runOpts = {
      destroy,
      refresh: opts.refresh ?? true,
      refreshOnly: mode === "refresh-only",
      forceReplace: opts.replace ?? [],
      targets: opts.targets ?? [],
      excludes: opts.excludes ?? [],
      preDestroyRefresh: step === "pre-destroy refresh",
      priorRefreshed: step === "destroy after refresh",
    };
    const moves = planMoves(config, prevRunState, runOpts);
    // The walk starts from the previous run state with the moves applied (OpenTofu's planWalk).
    const state = new SyncState(moves.walk.state.deepCopy());
    // The previous run's check results stay in the previous-run state only: the plan makes its
    // own (OpenTofu's graphWalker discards them from the refreshed state).
    state.setCheckResults(undefined);
    const prevRun = new SyncState(moves.walk.state.deepCopy());
    const run = this.newRun("plan", runOpts, { config, state, prevRunState: prevRun, changes: new ChangesSync(), providers, timestamp });
    for (const m of moves.first.providerMoves) run.providerMoves.set(uniqueKey(m.addr), m);
    const diagnostics: Diagnostic[] = [];
    const planFields = {
      uiMode: mode,
      targetAddrs: [...runOpts.targets],
      excludeAddrs: [...runOpts.excludes],
      forceReplaceAddrs: [...runOpts.forceReplace],
      complete: runOpts.targets.length === 0 && runOpts.excludes.length === 0,
    };
    const errored = (diags: Diagnostic[] = diagnostics): PlanResult => ({
      plan: newPlan({ ...planFields, prevRunState: prevRunState.deepCopy(), priorState: prevRunState.deepCopy(), errored: true, complete: false, timestamp }),
      diagnostics: diags,
      schemas: providers.schemaSets(),
    });
    try {
      diagnostics.push(...targetingWarning(runOpts));
      // Moves come first: -target/-exclude that split a move leave nothing sensible to plan.
      diagnostics.push(...moves.first.diagnostics);
      if (hasErrors(diagnostics)) return errored();
      diagnostics.push(...verifyTargetedMoves(moves.first.results.changes.values(), runOpts));
      if (hasErrors(diagnostics)) return errored();
      if (moves.walk !== moves.first) diagnostics.push(...moves.walk.diagnostics);
      diagnostics.push(...(await providers.loadSchemas(providersNeeded(config, prevRunState), config)));
      if (hasErrors(diagnostics)) return errored();
      // OpenTofu's local backend validates before it plans, so a reference validate rejects
      // (something undeclared, `self` outside a postcondition) stops here with validate's message.
      if (!runOpts.priorRefreshed) {
        diagnostics.push(...staticValidation(config, (r) => (r.provider ? providers.resourceTypeSchema(r.provider, r.mode, r.type)?.block : undefined)));
        if (hasErrors(diagnostics)) return errored();
        // ...and the rest of its validate walk: bodies against the schemas, the providers' own
        // checks, locals and outputs over unknowns. Over the configuration as written: resource
        // blocks that -generate-config-out stands in for have no body yet.
        diagnostics.push(...(await validateBodies(givenConfig, providers, this.validateOptions())));
        if (hasErrors(diagnostics)) return errored();
      }
      // The root module's variables are the plan walk's first nodes: one whose value does not
      // convert or fails a validation rule fails there, and what refers to it is not planned.
      diagnostics.push(...this.rootVariables(run, config, opts.variables ?? new Map(), true));
      if (hasErrors(diagnostics)) return { ...errored(), walked: true };
      // Until the walk reports them, the variables' own problems go with any other failure.
      const withVariables = () => [...diagnostics, ...[...run.rootVariableDiagnostics.values()].flat()];
      // Import blocks take part in normal plans only (import.ts).
      if (mode === "normal") diagnostics.push(...(generation?.diagnostics ?? validateImportTargets(config)));
      if (hasErrors(diagnostics)) return errored(withVariables());
      const b: BuildContext = { config, state: moves.walk.state, providers, destroy, changes: [], targets: runOpts.targets, excludes: runOpts.excludes };
      const built = buildGraph(b, planTransformers(destroy));
      diagnostics.push(...built.diagnostics);
      if (hasErrors(diagnostics)) return errored(withVariables());
      for (const k of forcedCreateBeforeDestroy(built.graph)) run.forcedCBD.add(k);
      // What each resource depends on, for the NoOp instances that record it while planning.
      for (const n of built.graph.vertices()) if (n.kind === "resource") run.dependencies.set(nodeName(n), resourceDependencies(built.graph, n));
      recordDataDependsOn(run, built.graph, b);
      diagnostics.push(...(await this.walkGraph(run, built.graph)));
      if (!hasErrors(diagnostics)) diagnostics.push(...postExpansionImportValidation(run));
      // Invalid move statements are the likely cause of any other problem, so they replace
      // every other diagnostic (OpenTofu's postPlanValidateMoves).
      const finished = finishMoves(moves.walk, config, declaredInstances(run), diagnostics);
      if (finished.invalid) return errored(finished.diagnostics);
      diagnostics.push(...finished.diagnostics);
      for (const c of run.changes.all()) {
        c.prevRunAddr = moves.walk.results.oldAddr(c.addr);
        // OpenTofu's deleteActionReason: an object moved to an address nothing declares.
        if (c.actionReason === "DeleteBecauseNoResourceConfig" && !c.addr.equal(c.prevRunAddr)) c.actionReason = "DeleteBecauseNoMoveTarget";
      }

      const outputs = [...run.outputChanges];
      const declared = config.module.outputs;
      for (const name of [...prevRunState.rootModule().outputValues.keys()].sort()) {
        if (!destroy && declared.has(name)) continue;
        // Targeting keeps only outputs descending from kept resources; a removed one has none.
        if (targetingActive(runOpts)) continue;
        const d = deletedOutputChange(run, name);
        if (d) outputs.push(d);
      }
      outputs.sort((a, c) => (a.addr.outputValue.name < c.addr.outputValue.name ? -1 : a.addr.outputValue.name > c.addr.outputValue.name ? 1 : 0));
      const variableValues = new Map<string, Value>();
      for (const [name, iv] of opts.variables ?? []) if (iv.value !== undefined) variableValues.set(name, iv.value);
      const ephemeralVariables = [...config.module.variables.values()].filter((v) => v.ephemeral).map((v) => v.name).sort();
      const isErrored = hasErrors(diagnostics);
      const priorState = state.close();
      const prevRunUpgraded = prevRun.close();
      const drift = driftedResources(providers, prevRunUpgraded, priorState, moves.walk.results);
      diagnostics.push(...drift.diagnostics);
      const plan = newPlan({
        ...planFields,
        variableValues,
        ephemeralVariables,
        changes: { resources: run.changes.all(), outputs },
        driftedResources: drift.changes,
        priorState,
        prevRunState: prevRunUpgraded,
        timestamp,
        errored: isErrored,
        // What an errored plan covers is unknown: terraform calls it incomplete.
        complete: planFields.complete && !isErrored,
        checks: runChecks(run).results(),
      });
      plan.relevantAttributes = relevantAttributes(config, providers, plan, run.childOutputChanges.filter((o) => o.created));
      // A refresh-only plan applies when refreshing changed something (OpenTofu's Plan.CanApply).
      plan.applyable = planCanApply(plan, !managedResourcesEqual(prevRunUpgraded, priorState));
      const hasChanges = plan.changes.resources.length > 0 || plan.changes.outputs.length > 0 || run.childOutputChanges.length > 0;
      return { plan, diagnostics, schemas: providers.schemaSets(), walked: true, hasChanges };
    } finally {
      await providers.close();
    }
  }

  /**
   * `terrace import` (OpenTofu's Context.Import): the plan walk with refreshing and planning
   * switched off, the command-line targets imported on the way (import.ts); the result is the
   * state to write. Nothing is written when there are errors.
   */
  async import(config: Config, prevRunState: State, opts: ImportOpts): Promise<{ state: State; diagnostics: Diagnostic[] }> {
    const providers = new ProviderManager(this.opts.providers, this.opts.terraformVersion ?? "1.11.0", this.opts.resourceProvider);
    const state = new SyncState(prevRunState.deepCopy());
    // As in a plan, the previous run's check results are not carried over (OpenTofu's graphWalker).
    state.setCheckResults(undefined);
    const runOpts = { destroy: false, refresh: false, refreshOnly: true, forceReplace: [], targets: [], excludes: [] };
    const run = this.newRun("plan", runOpts, { config, state, changes: new ChangesSync(), providers, timestamp: new Date() });
    for (const t of opts.targets) run.imports.addCommandLineTarget(t);
    const diagnostics: Diagnostic[] = [];
    try {
      diagnostics.push(...(await providers.loadSchemas(providersNeeded(config, prevRunState), config)));
      if (!hasErrors(diagnostics)) diagnostics.push(...this.rootVariables(run, config, opts.variables ?? new Map()));
      if (hasErrors(diagnostics)) return { state: prevRunState, diagnostics };
      const b: BuildContext = { config, state: prevRunState, providers, destroy: false, changes: [], targets: [], excludes: [] };
      const built = buildGraph(b, planTransformers(false));
      diagnostics.push(...built.diagnostics);
      if (hasErrors(diagnostics)) return { state: prevRunState, diagnostics };
      diagnostics.push(...(await this.walkGraph(run, built.graph)));
      if (!hasErrors(diagnostics)) diagnostics.push(...postExpansionImportValidation(run));
      return { state: hasErrors(diagnostics) ? prevRunState : state.close(), diagnostics };
    } finally {
      await providers.close();
    }
  }

  async apply(plan: Plan, config: Config, opts: ApplyOptions = {}): Promise<{ state: State; diagnostics: Diagnostic[] }> {
    const destroy = plan.uiMode === "destroy";
    const providers = new ProviderManager(this.opts.providers, this.opts.terraformVersion ?? "1.11.0", this.opts.resourceProvider);
    const state = new SyncState(plan.priorState.deepCopy(), opts.observer);
    const run = this.newRun(
      "apply",
      { destroy, refresh: false, refreshOnly: plan.uiMode === "refresh-only", forceReplace: plan.forceReplaceAddrs, targets: plan.targetAddrs, excludes: plan.excludeAddrs },
      { config, state, changes: new ChangesSync(plan.changes.resources), providers, timestamp: plan.timestamp, ...(destroy ? { destroyReads: new SyncState(plan.priorState) } : {}) },
    );
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
    // Imports happened when planning, and forgetting needs no provider; the UI still reports
    // both first (OpenTofu's Context.Apply).
    for (const c of plan.changes.resources) {
      if (c.change.importing) {
        this.opts.hooks?.preApplyImport?.(c.addr, c.change.importing.id);
        this.opts.hooks?.postApplyImport?.(c.addr, c.change.importing.id);
      }
      if (c.change.action === "Forget") {
        this.opts.hooks?.preApplyForget?.(c.addr);
        this.opts.hooks?.postApplyForget?.(c.addr);
      }
    }
    try {
      diagnostics.push(...(await providers.loadSchemas(providersNeeded(config, plan.priorState, plan.changes.resources.map((c) => c.providerAddr.provider)), config)));
      if (hasErrors(diagnostics)) return { state: state.close(), diagnostics };
      const inputs = new Map<string, InputValue>();
      for (const [name, v] of plan.variableValues) inputs.set(name, { value: v, sourceType: "input" });
      diagnostics.push(...this.rootVariables(run, config, inputs));
      if (hasErrors(diagnostics)) return { state: state.close(), diagnostics };
      const b: BuildContext = { config, state: plan.priorState, providers, destroy, changes: plan.changes.resources, targets: plan.targetAddrs, excludes: plan.excludeAddrs };
      const built = buildGraph(b, applyTransformers(destroy));
      diagnostics.push(...built.diagnostics);
      if (hasErrors(diagnostics)) return { state: state.close(), diagnostics };
      for (const n of built.graph.vertices()) if (n.kind === "applyInstance") run.dependencies.set(nodeName(n), resourceDependencies(built.graph, n));
      for (const k of forcedCreateBeforeDestroy(built.graph)) run.forcedCBD.add(k);
      diagnostics.push(...(await this.walkGraph(run, built.graph, checkpoint)));
      await persisting;
      // Root outputs the configuration no longer declares (all of them after a destroy).
      for (const name of [...(state.withState((s) => [...s.rootModule().outputValues.keys()]))]) {
        if ((destroy || !config.module.outputs.has(name)) && !targetingActive(run.opts)) state.removeOutputValue(name);
      }
      state.setCheckResults(plan.uiMode === "refresh-only" ? plan.checks : runChecks(run).results());
      if (destroy && !hasErrors(diagnostics) && !opts.suppressForgetErrors) diagnostics.push(...forgottenByDestroyDiagnostics(plan.changes.resources));
      diagnostics.push(...appliedTargetingWarning({ targets: plan.targetAddrs, excludes: plan.excludeAddrs }));
      return { state: state.close(), diagnostics };
    } finally {
      await persisting.catch(() => undefined);
      await providers.close();
    }
  }
}

/**
 * The moves of a plan. `first` applies the moved statements to the previous run state. A
 * destroy plan that refreshes is, in OpenTofu, a normal plan followed by a destroy walk over
 * its result; that second walk finds the moves already made (so its changes keep their
 * addresses) and only what is still blocked, and only its warnings are kept: `walk` is that
 * second application. Otherwise `walk` is `first`.
 */
function planMoves(
  config: Config,
  prevRunState: State,
  opts: { destroy: boolean; refresh: boolean; targets: RunOptions["targets"]; excludes: RunOptions["excludes"] },
): { first: PreparedMoves; walk: PreparedMoves } {
  const first = prepareMoves(config, prevRunState, opts);
  if (!opts.destroy || !opts.refresh || prevRunState.empty()) return { first, walk: first };
  return { first, walk: prepareMoves(config, first.state, opts) };
}

/** What the walk's expansion declared, for validating move statements (instances.Set). */
function declaredInstances(run: RunState): InstanceSet {
  const set = new InstanceSet();
  for (const c of allConfigs(run.config)) {
    for (const inst of run.expander.moduleInstances(c.path)) {
      set.addModuleInstance(inst);
      for (const name of c.module.moduleCalls.keys()) {
        if (run.expander.moduleCallExpansion(inst, name)) set.addModuleCall(new AbsModuleCall(inst, new ModuleCall(name)));
      }
      for (const rc of [...c.module.managedResources.values(), ...c.module.dataResources.values()]) {
        const e = run.expander.resourceExpansion(inst, resourceAddrString(rc));
        if (!e) continue;
        const res = new AbsResource(inst, new ResourceAddr(rc.mode, rc.type, rc.name));
        set.addResource(res);
        for (const key of expansionKeys(e)) set.addResourceInstance(res.instance(key));
      }
    }
  }
  return set;
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
