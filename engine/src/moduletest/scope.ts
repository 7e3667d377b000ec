// The scope test assertions are evaluated in (OpenTofu's TestContext.evaluate): the root module
// after a plan (planned values, unknowns included) or after an apply (the new state), plus the
// test language's own names — `var.*` holds every variable of the run (also those only the test
// file sets), `output.*` the root module's outputs and `run.<name>.*` the outputs of earlier runs.
// Locals and child module outputs are evaluated here from the configuration, on demand, over the
// same resource values (core keeps its walk's scope to itself). `terrace console` uses the same
// scope over a state (StateScope), where resources not in the state are unknown.
import { exprVariables, type Config } from "../configs/index.js";
import { errorDiag, hasErrors, type AnyExpression, type Diagnostic, type Traverser } from "../hcl/index.js";
import { EvalContext, evaluateAny } from "../lang/eval/index.js";
import { DynamicPseudoType, DynamicVal, compareStrings, nullVal, numberIntVal, objectVal, stringVal, tupleVal, unmarkDeep, type Func, type Value } from "../values/index.js";
import { instanceKeyString, intKey, stringKey } from "../addrs/index.js";

/** Resource instance values of one module instance: resource key (`aws_x.a`, `data.x.y`) → instance key string → value. */
export type ModuleResourceValues = Map<string, Map<string, Value>>;

export interface AssertionScopeInput {
  readonly config: Config;
  /** By module path (`""` for the root, `module.a` for a child). */
  readonly resources: ReadonlyMap<string, ModuleResourceValues>;
  /** Every variable of the run (including those the module does not declare). */
  readonly variables: ReadonlyMap<string, Value>;
  readonly outputs: ReadonlyMap<string, Value>;
  /** `run.<name>` objects of the runs before this one. */
  readonly runs: ReadonlyMap<string, Value>;
  readonly functions: ReadonlyMap<string, Func>;
  readonly workspace: string;
  /**
   * A resource with no instance values: after a plan or apply, none were planned (an empty
   * tuple or object for count and for_each); in the console's view of a state, none exist yet
   * (unknown, tofu's "(known after apply)").
   */
  readonly absent?: "empty" | "unknown";
}

/** What an expression of either syntax refers to (a JSON string's template included). */
function traversalsOf(e: AnyExpression | undefined): Traverser[][] {
  return e ? exprVariables(e) : [];
}

function rootName(t: readonly Traverser[]): string {
  const r = t[0];
  return r?.kind === "Root" ? r.name : "";
}

function attrName(t: readonly Traverser[], i: number): string | undefined {
  const s = t[i];
  return s?.kind === "Attr" ? s.name : undefined;
}

/** Instance values in the shape expressions see: one object, a tuple by index, an object by key. */
function resourceShape(instances: ReadonlyMap<string, Value> | undefined, kind: "single" | "count" | "forEach"): Value {
  if (!instances) return kind === "count" ? tupleVal([]) : kind === "forEach" ? objectVal({}) : DynamicVal;
  switch (kind) {
    case "single":
      return instances.get("") ?? DynamicVal;
    case "count":
      return tupleVal(
        [...instances.entries()]
          .filter(([k]) => k !== "")
          .sort(([a], [b]) => Number(a) - Number(b))
          .map(([, v]) => v),
      );
    case "forEach":
      return objectVal(new Map([...instances.entries()].filter(([k]) => k !== "")));
  }
}

/** `count.index`, or `each.key` and `each.value`, of the module instance a call's arguments are for. */
type Repetition = { readonly count: number } | { readonly key: string; readonly value: Value } | undefined;

/** A module call's instance keys: none for a single instance; undefined when they are not known. */
type CallInstances = { kind: "single" } | { kind: "count"; keys: number[] } | { kind: "forEach"; keys: Array<[string, Value]> } | undefined;

/**
 * One module instance: variables, locals and outputs evaluated lazily; a call with `count` or
 * `for_each` is a tuple or an object of its instances, each over its own resources.
 */
class ModuleScope {
  private readonly locals = new Map<string, Value>();
  private readonly evaluating = new Set<string>();
  private readonly children = new Map<string, ModuleScope>();

  constructor(
    private readonly input: AssertionScopeInput,
    private readonly config: Config,
    private readonly path: string,
    /** The values of this module's variables (the root's come from the run). */
    private readonly variable: (name: string) => Value,
  ) {}

  private child(name: string, key?: number | string, rep?: Repetition): ModuleScope | undefined {
    // The instance's address as the state writes it (`module.c[0]`, `module.f["a"]`).
    const suffix = key === undefined ? "" : instanceKeyString(typeof key === "number" ? intKey(key) : stringKey(key));
    let c = this.children.get(name + suffix);
    if (c) return c;
    const cfg = this.config.children.get(name);
    const call = this.config.module.moduleCalls.get(name);
    if (!cfg || !call) return undefined;
    const args = new Map<string, AnyExpression>();
    // The call's arguments are the child's variables, evaluated in this module.
    const body = call.config;
    if (body.syntax === "native") {
      for (const a of body.body.attributes) args.set(a.name, a.expr);
    }
    const parent = this;
    c = new ModuleScope(this.input, cfg, `${this.path === "" ? "" : `${this.path}.`}module.${name}${suffix}`, (v) => {
      const expr = args.get(v);
      if (expr) return parent.evaluate(expr, false, rep).value;
      return cfg.module.variables.get(v)?.default ?? DynamicVal;
    });
    this.children.set(name + suffix, c);
    return c;
  }

  /** The instances of a call with `count` or `for_each`, from its expression in this module. */
  private instances(name: string): CallInstances {
    const call = this.config.module.moduleCalls.get(name);
    if (!call || (!call.count && !call.forEach)) return { kind: "single" };
    if (call.count) {
      const [n] = unmarkDeep(this.evaluate(call.count).value);
      const count = n.kind === "number" && n.value.isInt() ? Number(n.value.toBigInt()) : undefined;
      if (count === undefined || count < 0) return undefined;
      return { kind: "count", keys: Array.from({ length: count }, (_, i) => i) };
    }
    const [v] = unmarkDeep(this.evaluate(call.forEach as AnyExpression).value);
    let keys: Array<[string, Value]>;
    if (v.kind === "map" || v.kind === "object") keys = [...v.attrs];
    else if (v.kind === "set") keys = v.elements.flatMap((e): Array<[string, Value]> => (e.kind === "string" ? [[e.value, e]] : []));
    else return undefined;
    return { kind: "forEach", keys: keys.sort(([a], [b]) => compareStrings(a, b)) };
  }

  /** `module.<name>`: the outputs object, or per instance a tuple (count) or an object (for_each). */
  private moduleValue(name: string): Value | undefined {
    const outputsOf = (c: ModuleScope | undefined): Value => {
      const outs = new Map<string, Value>();
      for (const o of this.config.children.get(name)?.module.outputs.keys() ?? []) outs.set(o, c ? c.output(o) : DynamicVal);
      return objectVal(outs);
    };
    const inst = this.instances(name);
    if (!inst) return DynamicVal;
    switch (inst.kind) {
      case "single":
        return outputsOf(this.child(name));
      case "count":
        return tupleVal(inst.keys.map((i) => outputsOf(this.child(name, i, { count: i }))));
      case "forEach":
        return objectVal(new Map(inst.keys.map(([k, v]) => [k, outputsOf(this.child(name, k, { key: k, value: v }))])));
    }
  }

  private local(name: string): Value {
    const have = this.locals.get(name);
    if (have) return have;
    const l = this.config.module.locals.get(name);
    if (!l || this.evaluating.has(name)) return DynamicVal;
    this.evaluating.add(name);
    const v = this.evaluate(l.expr).value;
    this.evaluating.delete(name);
    this.locals.set(name, v);
    return v;
  }

  output(name: string): Value {
    const o = this.config.module.outputs.get(name);
    if (!o?.expr) return DynamicVal;
    return this.evaluate(o.expr).value;
  }

  private resources(): ModuleResourceValues {
    return this.input.resources.get(this.path) ?? new Map();
  }

  private resourceValue(key: string, cfg: { count?: unknown; forEach?: unknown }): Value {
    const kind = cfg.count ? "count" : cfg.forEach ? "forEach" : "single";
    const instances = this.resources().get(key);
    if (!instances && this.input.absent === "unknown") return DynamicVal;
    return resourceShape(instances, kind);
  }

  /** The root outputs: a declared output with no value (a null one is not stored) is null. */
  private outputValues(): Map<string, Value> {
    const out = new Map(this.input.outputs);
    for (const name of this.config.module.outputs.keys()) if (!out.has(name)) out.set(name, nullVal(DynamicPseudoType));
    return out;
  }

  /** The context for expressions with the given traversals, with undeclared-name errors. */
  context(traversals: readonly (readonly Traverser[])[], testScope: boolean, rep?: Repetition): { ctx: EvalContext; diagnostics: Diagnostic[] } {
    const diagnostics: Diagnostic[] = [];
    const mod = this.config.module;
    const vars = new Map<string, Value>();
    const managed = new Map<string, Map<string, Value>>();
    const data = new Map<string, Map<string, Value>>();
    const locals = new Map<string, Value>();
    const calls = new Map<string, Value>();
    for (const t of traversals) {
      const root = rootName(t);
      const first = attrName(t, 1);
      // `output` and `run` are names only the test language has; elsewhere they are resource types
      // (the default case).
      switch (!testScope && (root === "output" || root === "run") ? "(resource type)" : root) {
        case "var": {
          if (testScope) {
            if (first !== undefined && !this.input.variables.has(first) && !mod.variables.has(first)) {
              diagnostics.push(
                errorDiag(
                  "Reference to undeclared input variable",
                  `An input variable with the name ${JSON.stringify(first)} has not been declared. This variable can be declared with a variable ${JSON.stringify(first)} {} block.`,
                  t[0]?.range,
                ),
              );
              break;
            }
            vars.set("var", objectVal(this.input.variables));
            break;
          }
          const attrs = new Map<string, Value>();
          for (const name of mod.variables.keys()) attrs.set(name, this.variable(name));
          vars.set("var", objectVal(attrs));
          break;
        }
        case "local":
          if (first === undefined) break;
          if (!mod.locals.has(first)) {
            diagnostics.push(errorDiag("Reference to undeclared local value", `A local value with the name ${JSON.stringify(first)} has not been declared.`, t[0]?.range));
            break;
          }
          locals.set(first, this.local(first));
          break;
        case "output":
          if (first !== undefined && !mod.outputs.has(first)) {
            diagnostics.push(errorDiag("Reference to undeclared output value", `An output value with the name ${JSON.stringify(first)} has not been declared.`, t[0]?.range));
            break;
          }
          vars.set("output", objectVal(this.outputValues()));
          break;
        case "run":
          if (first !== undefined && !this.input.runs.has(first)) {
            diagnostics.push(errorDiag("Reference to unknown run block", `The run block ${JSON.stringify(first)} does not exist within this test file. You can only reference run blocks that are in the same test file and will execute before the current run block.`, t[0]?.range));
            break;
          }
          vars.set("run", objectVal(this.input.runs));
          break;
        case "module": {
          if (first === undefined) break;
          const value = this.config.children.has(first) ? this.moduleValue(first) : undefined;
          if (!value) {
            diagnostics.push(errorDiag("Reference to undeclared module", `No module call named ${JSON.stringify(first)} is declared in ${this.path === "" ? "the root module" : this.path}.`, t[0]?.range));
            break;
          }
          calls.set(first, value);
          break;
        }
        case "count":
          if (rep && "count" in rep) vars.set("count", objectVal({ index: numberIntVal(rep.count) }));
          break;
        case "each":
          if (rep && "key" in rep) vars.set("each", objectVal({ key: stringVal(rep.key), value: rep.value }));
          break;
        case "data": {
          const type = first;
          const name = attrName(t, 2);
          if (type === undefined || name === undefined) break;
          const rc = mod.dataResources.get(`data.${type}.${name}`);
          if (!rc) {
            diagnostics.push(errorDiag("Reference to undeclared resource", `A data resource ${JSON.stringify(type)} ${JSON.stringify(name)} has not been declared in ${this.path === "" ? "the root module" : this.path}.`, t[0]?.range));
            break;
          }
          let byName = data.get(type);
          if (!byName) data.set(type, (byName = new Map()));
          byName.set(name, this.resourceValue(`data.${type}.${name}`, rc));
          break;
        }
        case "path":
          vars.set("path", objectVal({ module: stringVal(mod.sourceDir || "."), root: stringVal(this.input.config.module.sourceDir || "."), cwd: stringVal(".") }));
          break;
        case "terraform":
        case "tofu":
          vars.set(root, objectVal({ workspace: stringVal(this.input.workspace) }));
          break;
        case "self":
        case "":
          break;
        default: {
          if (first === undefined) break;
          const rc = mod.managedResources.get(`${root}.${first}`);
          if (!rc) {
            diagnostics.push(errorDiag("Reference to undeclared resource", `A managed resource ${JSON.stringify(root)} ${JSON.stringify(first)} has not been declared in ${this.path === "" ? "the root module" : this.path}.`, t[0]?.range));
            break;
          }
          let byName = managed.get(root);
          if (!byName) managed.set(root, (byName = new Map()));
          byName.set(first, this.resourceValue(`${root}.${first}`, rc));
          break;
        }
      }
    }
    if (locals.size > 0) vars.set("local", objectVal(locals));
    if (calls.size > 0) vars.set("module", objectVal(calls));
    for (const [type, byName] of managed) vars.set(type, objectVal(byName));
    if (data.size > 0) {
      const attrs = new Map<string, Value>();
      for (const [type, byName] of data) attrs.set(type, objectVal(byName));
      vars.set("data", objectVal(attrs));
    }
    return { ctx: new EvalContext(vars, this.input.functions), diagnostics };
  }

  /** The expression's value, and the scope it was evaluated in (for the values diagnostics list). */
  evaluate(expr: AnyExpression, testScope = false, rep?: Repetition): { value: Value; diagnostics: Diagnostic[]; ctx?: EvalContext } {
    const { ctx, diagnostics } = this.context(traversalsOf(expr), testScope, rep);
    if (hasErrors(diagnostics)) return { value: DynamicVal, diagnostics };
    const r = evaluateAny(expr, ctx);
    return { value: r.value, diagnostics: [...diagnostics, ...r.diagnostics], ctx };
  }
}

/**
 * The root module over a state's resource values, for `terrace console` (OpenTofu's eval walk,
 * without module instance keys): resources, data sources and module outputs on demand, and each
 * local with the errors evaluating it gives.
 */
export class StateScope {
  private readonly root: ModuleScope;

  constructor(private readonly input: AssertionScopeInput) {
    this.root = new ModuleScope({ ...input, absent: input.absent ?? "unknown" }, input.config, "", (name) => input.variables.get(name) ?? DynamicVal);
  }

  /** Values of the `module`, `data` and resource type names these traversals use. */
  context(traversals: readonly (readonly Traverser[])[]): { variables: ReadonlyMap<string, Value>; diagnostics: Diagnostic[] } {
    const { ctx, diagnostics } = this.root.context(traversals, false);
    return { variables: ctx.variables ?? new Map(), diagnostics };
  }

  /** A root local's value and the diagnostics of its expression. */
  local(name: string): { value: Value; diagnostics: Diagnostic[] } {
    const l = this.input.config.module.locals.get(name);
    if (!l) return { value: DynamicVal, diagnostics: [] };
    const r = this.root.evaluate(l.expr);
    return { value: r.value, diagnostics: r.diagnostics };
  }
}

/** Evaluates test-file expressions (assertions, error messages) in the root module's scope. */
export class AssertionScope {
  private readonly root: ModuleScope;

  constructor(input: AssertionScopeInput) {
    this.root = new ModuleScope(input, input.config, "", (name) => input.variables.get(name) ?? DynamicVal);
  }

  evaluate(expr: AnyExpression): { value: Value; diagnostics: Diagnostic[]; ctx?: EvalContext } {
    return this.root.evaluate(expr, true);
  }
}
