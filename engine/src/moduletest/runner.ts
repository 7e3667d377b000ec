// Running test files (OpenTofu's command/test.go TestSuiteRunner and TestFileRunner): files in
// name order; in each file the run blocks in order, each loading the module under test (or the
// run's `module`) with the run's variables, planning and for `command = apply` applying against
// the state the file keeps for that module, then evaluating its assertions; a failed run does not
// stop the file, an errored one skips the rest. At the end of each file every state it built is
// destroyed in reverse order of the run that last changed it (tofu 1.10: the module under test
// has no precedence), and what a destroy leaves behind goes to errored_test.tfstate.
import { parseAbsResourceInstance, parseTarget, type AbsResourceInstance, type Targetable } from "../addrs/index.js";
import { joinPath, newStaticModuleCall, type CheckRule, type Config, type Loader, type Provider as ConfigProvider } from "../configs/index.js";
import { decodeProviderStaticFields, referencesInExpr, staticFunctionTable } from "../configs/index.js";
import type { GetProviderSchemaResponse, Provider } from "../providers/index.js";
import { parseVariableValue, type InputValue, type UnparsedVariableValue } from "../configs/inputvars/index.js";
import { Context, ModuleFunctionTable, type ProviderFactory } from "../core/index.js";
import { copyDiagnostic, errorDiag, formatRange, hasErrors, type Diagnostic, type Range, type Traverser } from "../hcl/index.js";
import { EvalContext, evaluateAny, fromExpr } from "../lang/eval/index.js";
import type { FunctionFileSystem } from "../lang/functions/index.js";
import { State } from "../states/index.js";
import { BoolType, asBool, convert, isKnown, objectVal, unmarkDeep, type Func, type Value } from "../values/index.js";
import type { ErroredTestState, SaveErroredTestState } from "./errored.js";
import type { TestFile, TestRun } from "./file.js";
import { UnconfiguredProviders, runProviderHooks, type RunProviderHooks } from "./factory.js";
import { applyModuleOverrides, mergeModuleOverrides, mergeResourceOverrides, resolveResourceOverrides } from "./override.js";
import { applyTestProviders, runProviders } from "./providers.js";
import { AssertionScope } from "./scope.js";
import { mergeStatus, type FileResult, type RunResult, type SuiteResult } from "./status.js";
import { planOutputs, planResourceValues, stateOutputs, stateResourceValues } from "./values.js";

/** What the runner reports as it goes (views.Test). */
export interface TestView {
  file(file: FileResult): void;
  run(run: RunResult, file: FileResult): void;
  destroySummary(diagnostics: Diagnostic[], run: RunResult | undefined, file: FileResult, state: State): void;
  /** After a state cleanup left behind was written to errored_test.tfstate (or not). */
  erroredState?(result: ErroredTestState, run: RunResult, file: FileResult): void;
}

export interface SuiteOptions {
  /** Reads the module directory (and `module` sources relative to it). */
  readonly loader: Loader;
  /** The module under test, in the loader's file system. */
  readonly rootDir: string;
  /** Starts real provider instances; mocked configurations get one unconfigured instance per provider. */
  readonly providers: ProviderFactory;
  /** -var, -var-file, terraform.tfvars and TF_VAR_ values. */
  readonly globals: ReadonlyMap<string, UnparsedVariableValue>;
  readonly verbose?: boolean;
  readonly workspace?: string;
  readonly functionFS?: FunctionFileSystem;
  readonly cwd?: string;
  readonly parallelism?: number;
  /** Keeps what cleanup could not destroy (errored_test.tfstate); nothing is kept without it. */
  readonly saveErroredState?: SaveErroredTestState;
}

interface FileState {
  run: RunResult | undefined;
  runConfig: { config: Config; inputs: Map<string, InputValue>; hooks: RunProviderHooks } | undefined;
  state: State;
}

export class TestSuiteRunner {
  private readonly unconfigured: UnconfiguredProviders;
  private readonly functionTables = new Map<string, ReadonlyMap<string, Func>>();

  constructor(
    private readonly opts: SuiteOptions,
    private readonly view: TestView,
  ) {
    this.unconfigured = new UnconfiguredProviders(opts.providers);
  }

  async run(files: readonly TestFile[]): Promise<SuiteResult> {
    const suite: SuiteResult = { status: "pass", files: [] };
    const sorted = [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    try {
      for (const f of sorted) await this.runFile(f, suite);
    } finally {
      await this.unconfigured.close();
    }
    return suite;
  }

  private async runFile(f: TestFile, suite: SuiteResult): Promise<void> {
    const file: FileResult = { config: f, name: f.name, status: "pending", diagnostics: [], runs: f.runs.map((r, index) => ({ config: r, name: r.name, index, status: "pending", diagnostics: [] })) };
    suite.files.push(file);
    const states = new Map<string, FileState>([["", { run: undefined, runConfig: undefined, state: new State() }]]);
    await this.executeFile(file, states);
    await this.cleanup(file, states);
    suite.status = mergeStatus(suite.status, file.status);
  }

  private async executeFile(file: FileResult, states: Map<string, FileState>): Promise<void> {
    file.status = mergeStatus(file.status, "pass");
    const runOutputs = new Map<string, Value>();
    for (const run of file.runs) {
      if (file.status === "error") {
        run.status = "skip";
        continue;
      }
      const key = run.config.module ? run.config.module.sourceRaw : "";
      let fs = states.get(key);
      if (!fs) states.set(key, (fs = { run: undefined, runConfig: undefined, state: new State() }));
      const r = await this.executeRun(run, file, fs.state, runOutputs);
      if (r.updated) {
        fs.state = r.state;
        fs.run = run;
        fs.runConfig = r.runConfig;
      }
      if (r.outputs) runOutputs.set(run.name, objectVal(r.outputs));
      file.status = mergeStatus(file.status, run.status);
    }
    this.view.file(file);
    for (const run of file.runs) this.view.run(run, file);
  }

  private functions(dir: string): ReadonlyMap<string, Func> {
    let t = this.functionTables.get(dir);
    if (!t) {
      t = staticFunctionTable({ baseDir: dir, ...(this.opts.functionFS ? { fs: this.opts.functionFS } : {}) });
      this.functionTables.set(dir, t);
    }
    return t;
  }

  /**
   * The functions a run's assertions see: the built-in ones and, as in tofu's test context, the
   * provider-defined functions of the module under test, called on the command's unconfigured
   * instances (started here for the providers the assertions call).
   */
  private async assertionFunctions(run: RunResult, config: Config, dir: string): Promise<ReadonlyMap<string, Func>> {
    const builtins = this.functions(dir);
    const started = new Map<string, { provider?: Provider; schema?: GetProviderSchemaResponse }>();
    for (const rule of run.config.assertions) {
      for (const expr of [rule.condition, rule.errorMessage]) {
        if (!expr) continue;
        for (const ref of referencesInExpr(expr).refs) {
          if (ref.subject.kind !== "ProviderFunction") continue;
          const type = config.module.providerRequirements.requiredProviders.get(ref.subject.providerName)?.type;
          if (type && !started.has(type.toString())) started.set(type.toString(), await this.unconfigured.get(type));
        }
      }
    }
    if (started.size === 0) return builtins;
    return new ModuleFunctionTable(builtins, config, { functionInstance: (p) => started.get(p.toString())?.provider, providerSchema: (p) => started.get(p.toString())?.schema }, false);
  }

  /** The run's variable values: run-level over file-level over the command line and files. */
  private variables(
    run: TestRun,
    file: TestFile,
    config: Config | undefined,
    runOutputs: ReadonlyMap<string, Value>,
  ): { values: Map<string, Value>; ranges: Map<string, Range>; diagnostics: Diagnostic[] } {
    const diagnostics: Diagnostic[] = [];
    const values = new Map<string, Value>();
    // Where the test file sets a value: core's "not suitable" errors point there.
    const ranges = new Map<string, Range>();
    const ctx = new EvalContext(new Map([["run", objectVal(runOutputs)]]), this.functions(this.opts.rootDir));
    const setFrom = (name: string, expr: Parameters<typeof evaluateAny>[0]) => {
      const r = evaluateAny(expr, ctx);
      diagnostics.push(...r.diagnostics);
      if (hasErrors(r.diagnostics)) return;
      values.set(name, r.value);
      ranges.set(name, expr.range);
    };
    for (const [name, uv] of this.opts.globals) {
      const decl = config?.module.variables.get(name);
      const p = parseVariableValue(uv, decl?.parsingMode ?? "literal");
      diagnostics.push(...p.diagnostics);
      if (p.value.value !== undefined) values.set(name, p.value.value);
    }
    for (const [name, expr] of file.variables) setFrom(name, expr);
    for (const [name, expr] of run.variables) setFrom(name, expr);
    return { values, ranges, diagnostics };
  }

  private loadConfig(dir: string, values: ReadonlyMap<string, Value>): { config: Config | undefined; diagnostics: Diagnostic[] } {
    const call = newStaticModuleCall(
      [],
      (v) => ({ value: values.get(v.name) ?? v.default, diagnostics: [] }),
      dir,
      this.opts.workspace ?? "default",
      { functions: this.functions(dir) },
    );
    const r = this.opts.loader.loadConfig(dir, { staticCall: call });
    return { config: r.config, diagnostics: r.diagnostics };
  }

  private context(hooks: RunProviderHooks): Context {
    return new Context({
      providers: hooks.factory,
      resourceProvider: hooks.resourceProvider,
      ...(this.opts.parallelism ? { parallelism: this.opts.parallelism } : {}),
      ...(this.opts.functionFS ? { functionFS: this.opts.functionFS } : {}),
      ...(this.opts.cwd ? { cwd: this.opts.cwd } : {}),
      workspace: this.opts.workspace ?? "default",
    });
  }

  private async executeRun(
    run: RunResult,
    file: FileResult,
    state: State,
    runOutputs: ReadonlyMap<string, Value>,
  ): Promise<{ state: State; updated: boolean; outputs?: Map<string, Value>; runConfig?: FileState["runConfig"] }> {
    const cfg = run.config;
    const fail = (diags: Diagnostic[]) => {
      run.diagnostics.push(...diags);
      run.status = mergeStatus(run.status, "error");
      return { state, updated: false };
    };
    const v = checkExpectFailureReferences(cfg.expectFailures);
    if (hasErrors(v)) return fail(v);
    const planOpts = runPlanOptions(cfg);
    if (hasErrors(planOpts.diagnostics)) return fail(planOpts.diagnostics);

    const dir = cfg.module ? joinPath(this.opts.rootDir, cfg.module.source.kind === "local" ? cfg.module.source.path : ".") : this.opts.rootDir;
    const vars0 = this.variables(cfg, file.config, undefined, runOutputs);
    if (hasErrors(vars0.diagnostics)) return fail(vars0.diagnostics);
    const loaded = this.loadConfig(dir, vars0.values);
    if (!loaded.config || hasErrors(loaded.diagnostics)) return fail(loaded.diagnostics);
    const config = loaded.config;
    run.diagnostics.push(...loaded.diagnostics);
    // Parse the command-line values again now that the declarations (parsing modes) are known.
    const vars = this.variables(cfg, file.config, config, runOutputs);
    if (hasErrors(vars.diagnostics)) return fail(vars.diagnostics);

    const passed = runProviders(file.config, cfg);
    if (hasErrors(passed.diagnostics)) return fail(passed.diagnostics);
    const evaluator = config.module.staticEvaluator;
    const pd = applyTestProviders(config, passed.providers, (p: ConfigProvider) => (evaluator ? decodeProviderStaticFields(p, evaluator) : []));
    if (hasErrors(pd)) return fail(pd);
    const mods = mergeModuleOverrides(cfg.overrideModules, file.config.overrideModules);
    const md = [...mods.diagnostics, ...applyModuleOverrides(config, mods.overrides)];
    if (hasErrors(md)) return fail(md);
    const res = mergeResourceOverrides(cfg.overrideResources, file.config.overrideResources);
    const resolved = resolveResourceOverrides(config, res.overrides);
    const rd = [...res.diagnostics, ...resolved.diagnostics];
    if (hasErrors(rd)) return fail(rd);
    run.diagnostics.push(...pd, ...md, ...rd);
    const hooks = runProviderHooks(config, passed.providers, resolved.byResource, this.opts.providers, this.unconfigured);

    const ctx = this.context(hooks);
    // The configuration as the run transformed it is validated before it is planned
    // (TestFileRunner.validate): a problem the plan would not reach, such as in a resource
    // with count = 0, stops the run too.
    const validated = await this.context({ ...hooks, factory: hooks.validation }).validate(config);
    if (hasErrors(validated.diagnostics)) return fail(validated.diagnostics);
    run.diagnostics.push(...validated.diagnostics);

    const missing = requiredVariablesNotSet(config, vars.values);
    if (hasErrors(missing)) return fail(missing);
    const inputs = new Map<string, InputValue>();
    for (const name of config.module.variables.keys()) {
      const value = vars.values.get(name);
      const sourceRange = vars.ranges.get(name);
      if (value !== undefined) inputs.set(name, { value, sourceType: "config", ...(sourceRange ? { sourceRange } : {}) });
    }
    const planned = await ctx.plan(config, state, {
      mode: cfg.options.mode,
      refresh: cfg.options.refresh,
      variables: inputs,
      replace: planOpts.replace,
      targets: planOpts.targets,
    });
    const assertionVars = new Map(vars.values);
    for (const [name, decl] of config.module.variables) if (!assertionVars.has(name) && decl.default !== undefined) assertionVars.set(name, decl.default);

    if (cfg.command === "plan") {
      const diags = validateExpectedFailures(planned.diagnostics, expectedFailures(cfg.expectFailures), config);
      run.diagnostics.push(...diags);
      if (hasErrors(diags)) {
        run.status = mergeStatus(run.status, "error");
        return { state, updated: false };
      }
      if (this.opts.verbose) run.verbose = { config, plan: planned.plan, state: planned.plan.priorState, schemas: planned.schemas };
      const outputs = planOutputs(planned.plan);
      this.evaluate(run, config, planResourceValues(planned.plan, planned.schemas), outputs, assertionVars, runOutputs, await this.assertionFunctions(run, config, dir));
      return { state, updated: false, outputs };
    }
    // An apply run's expected failures are for the apply: a failure while planning (expected
    // or not) stops the run. Otherwise the plan's check block warnings are dropped, as the
    // apply reports its own.
    if (hasErrors(planned.diagnostics)) {
      run.diagnostics.push(...planned.diagnostics);
      run.status = mergeStatus(run.status, "error");
      return { state, updated: false };
    }
    run.diagnostics.push(...planned.diagnostics.filter((d) => d.summary !== CHECK_ASSERTION_FAILED));
    const applied = await ctx.apply(planned.plan, config);
    const applyDiags = validateExpectedFailures(applied.diagnostics, expectedFailures(cfg.expectFailures), config);
    run.diagnostics.push(...applyDiags);
    const runConfig = { config, inputs, hooks };
    if (hasErrors(applyDiags)) {
      run.status = mergeStatus(run.status, "error");
      return { state: applied.state, updated: true, runConfig };
    }
    if (this.opts.verbose) run.verbose = { config, plan: planned.plan, state: applied.state, schemas: planned.schemas };
    const outputs = stateOutputs(applied.state);
    this.evaluate(run, config, stateResourceValues(applied.state, planned.schemas), outputs, assertionVars, runOutputs, await this.assertionFunctions(run, config, dir));
    return { state: applied.state, updated: true, outputs, runConfig };
  }

  /** The run's assertions (TestContext.evaluate). */
  private evaluate(
    run: RunResult,
    config: Config,
    resources: ReturnType<typeof stateResourceValues>,
    outputs: Map<string, Value>,
    variables: Map<string, Value>,
    runs: ReadonlyMap<string, Value>,
    functions: ReadonlyMap<string, Func>,
  ): void {
    const scope = new AssertionScope({ config, resources, variables, outputs, runs, functions, workspace: this.opts.workspace ?? "default" });
    run.status = mergeStatus(run.status, "pass");
    for (const rule of run.config.assertions) {
      if (!rule.condition) continue;
      const diags: Diagnostic[] = [];
      let message = "";
      if (rule.errorMessage) {
        const m = scope.evaluate(rule.errorMessage);
        diags.push(...m.diagnostics);
        const s = convert(unmarkDeep(m.value)[0], { kind: "string" });
        if (s.ok && s.value.kind === "string") message = s.value.value;
      }
      const c = scope.evaluate(rule.condition);
      diags.push(...c.diagnostics);
      run.diagnostics.push(...diags);
      if (hasErrors(diags)) {
        run.status = mergeStatus(run.status, "error");
        continue;
      }
      const value = unmarkDeep(c.value)[0];
      const at = rule.condition.range;
      if (value.kind === "null") {
        run.status = mergeStatus(run.status, "error");
        run.diagnostics.push(fromExpr(errorDiag("Invalid condition run", "Condition expression must return either true or false, not null.", at), rule.condition, c.ctx));
        continue;
      }
      if (!isKnown(value)) {
        run.status = mergeStatus(run.status, "error");
        // terraform lists no values under this one.
        run.diagnostics.push(errorDiag("Unknown condition run", "Condition expression could not be evaluated at this time.", at));
        continue;
      }
      const b = convert(value, BoolType);
      if (!b.ok) {
        run.status = mergeStatus(run.status, "error");
        run.diagnostics.push(fromExpr(errorDiag("Invalid condition run", "Invalid condition run value: a bool is required.", at), rule.condition, c.ctx));
        continue;
      }
      if (!asBool(b.value)) {
        run.status = mergeStatus(run.status, "fail");
        run.diagnostics.push(fromExpr(errorDiag("Test assertion failed", message, at), rule.condition, c.ctx));
      }
    }
  }

  /**
   * Destroys what the file created (TestFileRunner.Cleanup): every state a run left, the latest
   * run's first. A state cleanup leaves non-empty is written to errored_test.tfstate.
   */
  private async cleanup(file: FileResult, states: Map<string, FileState>): Promise<void> {
    const order: FileState[] = [];
    for (const fs of states.values()) {
      if (fs.run && fs.runConfig) order.push(fs);
      else if (!fs.state.empty()) {
        // A state no run owns cannot be destroyed: nothing says which configuration made it.
        const bug = errorDiag("Inconsistent state", `Found inconsistent state while cleaning up ${file.name}. This is a bug in Terrace - please report it`);
        this.view.destroySummary([bug], undefined, file, fs.state);
      }
    }
    order.sort((a, b) => (b.run?.index ?? 0) - (a.run?.index ?? 0));
    for (const fs of order) {
      if (!fs.run || !fs.runConfig) continue;
      const diagnostics: Diagnostic[] = [];
      let state = fs.state;
      if (!state.empty()) {
        const ctx = this.context(fs.runConfig.hooks);
        const p = await ctx.plan(fs.runConfig.config, state, { mode: "destroy", refresh: true, variables: fs.runConfig.inputs });
        diagnostics.push(...p.diagnostics);
        if (!hasErrors(p.diagnostics)) {
          const a = await ctx.apply(p.plan, fs.runConfig.config);
          diagnostics.push(...a.diagnostics);
          state = a.state;
        }
      }
      this.view.destroySummary(diagnostics, fs.run, file, state);
      if (state.hasManagedResourceInstanceObjects() && this.opts.saveErroredState) {
        this.view.erroredState?.(this.opts.saveErroredState(state), fs.run, file);
      }
    }
  }
}

/**
 * The module's variables without a value from the run, the file or the command line and without
 * a default (backend.ParseVariableValues, as tofu's buildInputVariablesForTest calls it).
 */
function requiredVariablesNotSet(config: Config, values: ReadonlyMap<string, Value>): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const [name, decl] of config.module.variables) {
    if (values.has(name) || decl.default !== undefined) continue;
    diagnostics.push(
      errorDiag(
        "No value for required variable",
        `The root module input variable ${JSON.stringify(name)} is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.`,
        decl.declRange,
      ),
    );
  }
  return diagnostics;
}

/** Only checkable objects may be expected to fail (TestRun.Validate). */
function checkExpectFailureReferences(traversals: readonly Traverser[][]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const t of traversals) {
    const root = t[0]?.kind === "Root" ? t[0].name : "";
    if (["var", "output", "check"].includes(root)) continue;
    if (["local", "module", "path", "terraform", "run", "count", "each", "self"].includes(root)) {
      const subject = t.map((s) => (s.kind === "Root" ? s.name : s.kind === "Attr" ? `.${s.name}` : "")).join("").split(".").slice(0, 2).join(".");
      diagnostics.push(
        errorDiag(
          "Invalid `expect_failures` reference",
          `You cannot expect failures from ${subject}. You can only expect failures from checkable objects such as input variables, output values, check blocks, managed resources and data sources.`,
          t[0]?.range,
        ),
      );
    }
  }
  return diagnostics;
}

interface Expected {
  readonly subject: string;
  readonly root: string;
  readonly name: string;
  readonly range: Traverser["range"] | undefined;
  found: boolean;
}

function expectedFailures(traversals: readonly Traverser[][]): Expected[] {
  return traversals.map((t) => {
    const root = t[0]?.kind === "Root" ? t[0].name : "";
    const second = t[1];
    const name = second?.kind === "Attr" ? second.name : "";
    return { subject: `${root}.${name}`, root, name, range: t[0]?.range, found: false };
  });
}

/** The condition rules of the checkable object an `expect_failures` entry names. */
function checkableRules(x: Expected, config: Config): readonly CheckRule[] {
  const m = config.module;
  switch (x.root) {
    case "output":
      return m.outputs.get(x.name)?.preconditions ?? [];
    case "check":
      return m.checks.get(x.name)?.asserts ?? [];
    case "data": {
      const r = m.dataResources.get(`data.${x.name}`);
      return r ? [...r.preconditions, ...r.postconditions] : [];
    }
    default: {
      const r = m.managedResources.get(`${x.root}.${x.name}`);
      return r ? [...r.preconditions, ...r.postconditions] : [];
    }
  }
}

function sameRange(a: Range | undefined, b: Range | undefined): boolean {
  return a !== undefined && b !== undefined && a.filename === b.filename && a.start.byte === b.start.byte && a.end.byte === b.end.byte;
}

/**
 * OpenTofu's ValidateExpectedFailures: removes the failures a run expects, turns a check block's
 * failed assertion (a warning outside tests) into an error unless it is expected, and adds a
 * "Missing expected failure" for each expected object that did not fail. Core reports a root
 * variable's failed validation as "Invalid value for variable" naming the rule's range, and a
 * failed resource/output condition or check assertion at the rule's condition; each is matched
 * to the checkable object whose rule it is.
 */
function validateExpectedFailures(diags: readonly Diagnostic[], expected: Expected[], config: Config): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const d of diags) {
    if (d.severity === "error" && d.summary === "Invalid value for variable") {
      const e = expected.find((x) => x.root === "var" && config.module.variables.get(x.name)?.validations.some((rule) => d.detail.includes(formatRange(rule.declRange))));
      if (e) {
        e.found = true;
        continue;
      }
    }
    if (CONDITION_FAILURES.has(d.summary)) {
      const e = expected.find((x) => x.root !== "var" && checkableRules(x, config).some((rule) => sameRange(rule.condition?.range, d.subject)));
      if (e && (d.severity === "error" || d.summary === CHECK_ASSERTION_FAILED)) {
        e.found = true;
        continue;
      }
      if (d.summary === CHECK_ASSERTION_FAILED) {
        out.push(copyDiagnostic(d, { severity: "error" }));
        continue;
      }
    }
    out.push(d);
  }
  return [...out, ...missingExpectedFailures(expected)];
}

const CHECK_ASSERTION_FAILED = "Check block assertion failed";

/** What core calls a failed condition of a checkable object (core/conditions.ts). */
const CONDITION_FAILURES: ReadonlySet<string> = new Set([
  "Resource precondition failed",
  "Resource postcondition failed",
  "Module output value precondition failed",
  CHECK_ASSERTION_FAILED,
]);

function missingExpectedFailures(expected: readonly Expected[]): Diagnostic[] {
  return expected
    .filter((e) => !e.found)
    .map((e) => errorDiag("Missing expected failure", `The checkable object, ${e.subject}, was expected to report an error but did not.`, e.range));
}

/** A run block's plan_options `replace` and `target` as the core's addresses. */
function runPlanOptions(run: TestRun): { replace: AbsResourceInstance[]; targets: Targetable[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const replace: AbsResourceInstance[] = [];
  const targets: Targetable[] = [];
  for (const t of run.options.replace) {
    const r = parseAbsResourceInstance(t);
    diagnostics.push(...r.diagnostics);
    if (!r.result || hasErrors(r.diagnostics)) continue;
    if (r.result.resource.resource.mode !== "managed") {
      const first = t[0];
      const last = t[t.length - 1];
      const subject = first && last ? { ...first.range, end: last.range.end } : undefined;
      diagnostics.push(errorDiag("Can only target managed resources for forced replacements.", r.result.toString(), subject));
      continue;
    }
    replace.push(r.result);
  }
  for (const t of run.options.target) {
    const r = parseTarget(t);
    diagnostics.push(...r.diagnostics);
    if (r.result) targets.push(r.result.subject);
  }
  return { replace, targets, diagnostics };
}
