// What a module's expressions are evaluated with in the validate walk (OpenTofu's walkValidate):
// input variables are unknown values of their declared types (sensitive or ephemeral as
// declared), so the configuration is checked for every possible input; resources are unknown
// objects of their schema's type (wholly unknown with count or for_each); module calls are
// unknown objects of their outputs (a list or map of them with count or for_each); and local
// values are evaluated for real, in dependency order, from all of these. A local whose evaluation
// failed, or that depends on one that did, stays unknown, and nothing that refers to it is
// checked again: the walk skips whatever is downstream of a failure.
import type { Config } from "../configs/index.js";
import { exprVariables, staticFunctionTable } from "../configs/index.js";
import { hasErrors, type AnyExpression, type Diagnostic } from "../hcl/index.js";
import { EvalContext, evaluateAny } from "../lang/eval/index.js";
import { impliedType } from "../providers/index.js";
import { DynamicPseudoType, DynamicVal, EPHEMERAL, SENSITIVE, listOf, mapOf, objectOf, objectVal, stringVal, unknownVal, withMarks, type Type, type Value } from "../values/index.js";
import { ModuleFunctionTable } from "./provider_functions.js";
import type { ProviderManager } from "./providers.js";
import type { SchemaValidateOptions } from "./validate.js";

export interface ValidateScope {
  /** The module's evaluation context, locals included. */
  readonly ctx: EvalContext;
  /** What evaluating the locals found. */
  readonly diagnostics: Diagnostic[];
  /** Whether an expression refers to a local value that failed (and so is not checked). */
  downstreamOfFailure(expr: AnyExpression | undefined): boolean;
}

export function validateScope(c: Config, manager: ProviderManager, opts: SchemaValidateOptions): ValidateScope {
  const variables = baseVariables(c, manager, opts);
  const builtins = staticFunctionTable({ baseDir: c.module.sourceDir, ...(opts.functionFS ? { fs: opts.functionFS } : {}) });
  const functions = new ModuleFunctionTable(builtins, c, manager, true);
  const values = new Map<string, Value>();
  const failed = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  const localsUsed = (expr: AnyExpression): string[] =>
    exprVariables(expr).flatMap((t) => {
      const [root, step] = t;
      return root?.kind === "Root" && root.name === "local" && step?.kind === "Attr" ? [step.name] : [];
    });
  const state = new Map<string, "visiting" | "done">();
  const evaluateLocal = (name: string): void => {
    const l = c.module.locals.get(name);
    if (!l || state.has(name)) return; // done, or a cycle (the graph reports it)
    state.set(name, "visiting");
    const used = localsUsed(l.expr);
    for (const dep of used) evaluateLocal(dep);
    if (used.some((dep) => failed.has(dep))) failed.add(name);
    else {
      // Only the locals this one uses: rebuilding every local for each would be quadratic.
      const ctx = new EvalContext(new Map([...variables, ["local", objectVal(new Map(used.map((n) => [n, values.get(n) ?? DynamicVal])))]]), functions);
      const r = evaluateAny(l.expr, ctx);
      diagnostics.push(...r.diagnostics);
      if (hasErrors(r.diagnostics)) failed.add(name);
      else values.set(name, r.value);
    }
    state.set(name, "done");
  };
  for (const name of c.module.locals.keys()) evaluateLocal(name);
  const ctx = new EvalContext(new Map([...variables, ["local", objectVal(localsObject(c, values))]]), functions);
  return {
    ctx,
    diagnostics,
    downstreamOfFailure: (expr) => expr !== undefined && localsUsed(expr).some((n) => failed.has(n)),
  };
}

/** Every declared local: its value where it has one, unknown otherwise. */
function localsObject(c: Config, values: ReadonlyMap<string, Value>): Map<string, Value> {
  const out = new Map<string, Value>();
  for (const name of c.module.locals.keys()) out.set(name, values.get(name) ?? DynamicVal);
  return out;
}

function variableValue(t: Type | undefined, sensitive: boolean, ephemeral: boolean): Value {
  let v: Value = unknownVal(t ?? DynamicPseudoType);
  if (sensitive) v = withMarks(v, SENSITIVE);
  if (ephemeral) v = withMarks(v, EPHEMERAL);
  return v;
}

/** A module call's value: its outputs, none of them known yet. */
function moduleCallValue(c: Config, name: string): Value {
  const child = c.children.get(name);
  const call = c.module.moduleCalls.get(name);
  if (!child || !call) return DynamicVal;
  const instance = objectOf(new Map([...child.module.outputs.keys()].map((o) => [o, DynamicPseudoType])));
  return unknownVal(call.count ? listOf(instance) : call.forEach ? mapOf(instance) : instance);
}

/** Everything but the locals. */
function baseVariables(c: Config, manager: ProviderManager, opts: SchemaValidateOptions): Map<string, Value> {
  const vars = new Map<string, Value>();
  for (const [name, v] of c.module.variables) vars.set(name, variableValue(v.constraintType, v.sensitive === true, v.ephemeral === true));
  const byType = new Map<string, Map<string, Value>>();
  const data = new Map<string, Map<string, Value>>();
  for (const r of [...c.module.managedResources.values(), ...c.module.dataResources.values()]) {
    const target = r.mode === "data" ? data : r.mode === "managed" ? byType : undefined;
    if (!target) continue;
    const schema = r.provider ? manager.resourceTypeSchema(r.provider, r.mode, r.type) : undefined;
    const v = r.count || r.forEach || !schema ? DynamicVal : unknownVal(impliedType(schema.block));
    const names = target.get(r.type) ?? new Map<string, Value>();
    names.set(r.name, v);
    target.set(r.type, names);
  }
  const modules = new Map<string, Value>();
  for (const name of c.module.moduleCalls.keys()) modules.set(name, moduleCallValue(c, name));
  const variables = new Map<string, Value>([
    ["var", objectVal(vars)],
    ["module", objectVal(modules)],
    ["each", DynamicVal],
    ["count", DynamicVal],
    ["self", DynamicVal],
    ["path", objectVal(new Map([["module", stringVal(c.module.sourceDir)], ["root", stringVal(".")], ["cwd", stringVal(opts.cwd ?? ".")]]))],
    ["terraform", objectVal(new Map([["workspace", stringVal(opts.workspace ?? "default")]]))],
  ]);
  for (const [type, names] of byType) variables.set(type, objectVal(names));
  variables.set("data", objectVal(new Map([...data].map(([type, names]) => [type, objectVal(names)]))));
  // Ephemeral resources: unknown, and ephemeral, so misplaced references show up already here.
  const ephemeral = new Map<string, Map<string, Value>>();
  for (const r of c.module.ephemeralResources.values()) {
    const schema = r.provider ? manager.resourceTypeSchema(r.provider, r.mode, r.type) : undefined;
    const v = withMarks(r.count || r.forEach || !schema ? DynamicVal : unknownVal(impliedType(schema.block)), EPHEMERAL);
    ephemeral.set(r.type, (ephemeral.get(r.type) ?? new Map()).set(r.name, v));
  }
  variables.set("ephemeral", objectVal(new Map([...ephemeral].map(([type, names]) => [type, objectVal(names)]))));
  return variables;
}
