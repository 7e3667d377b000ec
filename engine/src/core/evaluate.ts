// The evaluation scope of one expression (OpenTofu's evaluationStateData + lang.Scope): the
// references an expression makes are parsed (addrs.parseRef) and only those objects are built:
// `var.*`, `local.*`, resources and data sources as whole-resource values (a list for `count`, a
// map for `for_each`), `module.*` outputs, `path.*`, `terraform.workspace`, `count.index`,
// `each.key`/`each.value`. During plan a resource instance's value is its planned value (with
// unknowns) when it has a change, else its state; during apply, its state. Sensitive marks come
// from variables, outputs and provider schemas.
import { deprecatedOutputWarning } from "./deprecation.js";
import {
  AbsResource,
  AbsResourceInstance,
  NoKey,
  ResourceInstance,
  Resource as ResourceAddr,
  parseRef,
  type InstanceKey,
  type ModuleInstance,
  type Reference,
} from "../addrs/index.js";
import { moduleResource, modulePathString, type Config, type Resource } from "../configs/index.js";
import { errorDiag, type Diagnostic, type Traverser } from "../hcl/index.js";
import { EvalContext, countAttrProblem, eachAttrProblem } from "../lang/eval/index.js";
import { impliedType } from "../providers/index.js";
import { decodeObject } from "../states/index.js";
import {
  DynamicPseudoType,
  DynamicVal,
  SENSITIVE,
  nullVal,
  objectVal,
  stringVal,
  tupleVal,
  unknownVal,
  withMarks,
  type Value,
} from "../values/index.js";
import { ephemeralInstanceValue } from "./ephemeral.js";
import { SINGLE, expansionKeys, type Expansion, type RepetitionData } from "./expand.js";
import type { RunState } from "./run.js";
import { markSensitiveBySchema } from "./schemabody.js";

export interface ScopeRequest {
  /** The module instance the expression belongs to. */
  readonly module: ModuleInstance;
  readonly repetition: RepetitionData;
  /** Whether `count`/`each` may be used (the object has count / for_each). */
  readonly hasCount?: boolean;
  readonly hasForEach?: boolean;
}

function staticPath(m: ModuleInstance): string[] {
  return m.steps.map((s) => s.name);
}

function moduleDisplay(path: readonly string[]): string {
  return path.length === 0 ? "the root module" : modulePathString(path);
}

/** The references of the given traversals, with parse errors. */
export function referencesOf(traversals: readonly Traverser[][]): { refs: Reference[]; diagnostics: Diagnostic[] } {
  const refs: Reference[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const t of traversals) {
    const r = parseRef(t);
    diagnostics.push(...r.diagnostics);
    if (r.result) refs.push(r.result);
  }
  return { refs, diagnostics };
}

/** One resource instance's value as expressions see it. */
export function resourceInstanceValue(run: RunState, addr: AbsResourceInstance, cfg: Resource): Value {
  const schema = cfg.provider ? run.providers.resourceTypeSchema(cfg.provider, cfg.mode, cfg.type) : undefined;
  if (!schema) return DynamicVal;
  // Never in the changes or the state: the walk's own registry (ephemeral.ts).
  if (cfg.mode === "ephemeral") return ephemeralInstanceValue(run, addr, schema);
  const ty = impliedType(schema.block);
  if (run.opts.destroy) {
    // A destroy reads every object as it was before (what remains to configure providers from
    // and to evaluate module outputs with), as OpenTofu's destroy reads its refreshed prior state.
    const src = (run.destroyReads ?? run.state).resourceInstanceObject(addr);
    const d = src ? decodeObject(src, ty) : undefined;
    return d?.ok ? markSensitiveBySchema(schema.block, d.value.value) : unknownVal(ty);
  }
  if (run.opts.operation === "plan") {
    const ch = run.changes.get(addr);
    if (ch) return ch.change.action === "Delete" ? unknownVal(ty) : ch.change.after;
  }
  const src = run.state.resourceInstanceObject(addr);
  if (src) {
    const d = decodeObject(src, ty);
    if (d.ok) return markSensitiveBySchema(schema.block, d.value.value);
  }
  if (run.opts.operation === "apply") {
    const ch = run.changes.get(addr);
    if (ch && ch.change.action !== "Delete") return ch.change.after;
  }
  return unknownVal(ty);
}

/** The whole resource: one object, a tuple by count index, or an object by for_each key. */
export function resourceValue(run: RunState, module: ModuleInstance, cfg: Resource): Value {
  const addr = new ResourceAddr(cfg.mode, cfg.type, cfg.name);
  // Destroy graphs expand no resources: a destroy reads them as the state has them.
  const exp = run.expander.resourceExpansion(module, addr.toString()) ?? (run.opts.destroy ? expansionInState(run, module, addr, cfg) : undefined);
  if (!exp) return DynamicVal;
  const inst = (k: InstanceKey) => resourceInstanceValue(run, new AbsResourceInstance(module, new ResourceInstance(addr, k)), cfg);
  // A refresh-only plan deletes nothing, so instances still in state beyond the expansion are
  // part of the resource's value, as OpenTofu builds it from the state's instances.
  const kept = run.opts.operation === "plan" && run.opts.refreshOnly ? [...(run.state.resource(new AbsResource(module, addr))?.instances.values() ?? [])].map((is) => is.key) : [];
  switch (exp.kind) {
    case "single":
      return inst(NoKey);
    case "disabled": {
      // `enabled = false`: the resource is null (of its object type, when the schema is known).
      const schema = cfg.provider ? run.providers.resourceTypeSchema(cfg.provider, cfg.mode, cfg.type) : undefined;
      return nullVal(schema ? impliedType(schema.block) : DynamicPseudoType);
    }
    case "count": {
      let n = exp.count;
      for (const k of kept) if (k.kind === "IntKey" && k.value >= n) n = k.value + 1;
      return tupleVal(Array.from({ length: n }, (_, i) => inst({ kind: "IntKey", value: i })));
    }
    case "forEach": {
      const out = new Map<string, Value>();
      for (const k of exp.elements.keys()) out.set(k, inst({ kind: "StringKey", value: k }));
      for (const k of kept) if (k.kind === "StringKey" && !out.has(k.value)) out.set(k.value, inst(k));
      return objectVal(out);
    }
  }
}

/** The expansion the instances in a destroy's state make: count indexes, for_each keys or one. */
function expansionInState(run: RunState, module: ModuleInstance, addr: ResourceAddr, cfg: Resource): Expansion {
  const keys = [...((run.destroyReads ?? run.state).resource(new AbsResource(module, addr))?.instances.values() ?? [])].map((is) => is.key);
  if (keys.length > 0 ? keys.every((k) => k.kind === "IntKey") : !!cfg.count) {
    return { kind: "count", count: keys.reduce((n, k) => (k.kind === "IntKey" ? Math.max(n, k.value + 1) : n), 0) };
  }
  if (keys.length > 0 ? keys.every((k) => k.kind === "StringKey") : !!cfg.forEach) {
    return { kind: "forEach", elements: new Map(keys.map((k) => [k.kind === "StringKey" ? k.value : "", DynamicVal])) };
  }
  return SINGLE;
}

/** module.NAME: the outputs of each instance of the call. */
function moduleCallValue(run: RunState, module: ModuleInstance, callName: string): Value {
  const path = [...staticPath(module), callName];
  const child = run.moduleConfig(path);
  const exp = run.expander.moduleCallExpansion(module, callName);
  if (!child || !exp) return DynamicVal;
  const instValue = (inst: ModuleInstance): Value => {
    const attrs = new Map<string, Value>();
    for (const [name, o] of child.module.outputs) {
      let v = run.values.get("output", inst, name) ?? DynamicVal;
      if (o.sensitive) v = withMarks(v, SENSITIVE);
      attrs.set(name, v);
    }
    return objectVal(attrs);
  };
  switch (exp.kind) {
    case "single":
      return instValue(module.child(callName, NoKey));
    case "disabled":
      return nullVal(DynamicPseudoType);
    case "count":
      return tupleVal(expansionKeys(exp).map((k) => instValue(module.child(callName, k))));
    case "forEach": {
      const out = new Map<string, Value>();
      for (const k of exp.elements.keys()) out.set(k, instValue(module.child(callName, { kind: "StringKey", value: k })));
      return objectVal(out);
    }
  }
}

/**
 * The evaluation context for expressions with the given traversals, in the module instance and
 * repetition of `req`. Unknown names give OpenTofu's "undeclared" errors.
 */
export function evalScope(run: RunState, req: ScopeRequest, traversals: readonly Traverser[][]): { ctx: EvalContext; diagnostics: Diagnostic[] } {
  const path = staticPath(req.module);
  const cfg: Config | undefined = run.moduleConfig(path);
  const { refs, diagnostics } = referencesOf(traversals);
  const vars = new Map<string, Value>();
  if (!cfg) return { ctx: new EvalContext(vars, run.functions(path, req.module)), diagnostics };
  const mod = cfg.module;

  const varNames = new Set<string>();
  const localNames = new Set<string>();
  const managed = new Map<string, Map<string, Value>>();
  const data = new Map<string, Map<string, Value>>();
  const ephemeral = new Map<string, Map<string, Value>>();
  const calls = new Map<string, Value>();
  for (const ref of refs) {
    const s = ref.subject;
    switch (s.kind) {
      case "InputVariable":
        if (s.name === "") break;
        if (!mod.variables.has(s.name)) {
          diagnostics.push(
            errorDiag(
              "Reference to undeclared input variable",
              `An input variable with the name ${JSON.stringify(s.name)} has not been declared. This variable can be declared with a variable ${JSON.stringify(s.name)} {} block.`,
              ref.sourceRange,
            ),
          );
        }
        varNames.add(s.name);
        break;
      case "LocalValue":
        if (s.name === "") break;
        if (!mod.locals.has(s.name)) {
          diagnostics.push(errorDiag("Reference to undeclared local value", `A local value with the name ${JSON.stringify(s.name)} has not been declared.`, ref.sourceRange));
        }
        localNames.add(s.name);
        break;
      case "Resource":
      case "ResourceInstance": {
        const r = s.kind === "Resource" ? s : s.resource;
        const key = r.toString();
        const rc = moduleResource(mod, r.mode, key);
        if (!rc) {
          const what = r.mode === "data" ? "data resource" : r.mode === "managed" ? "managed resource" : "ephemeral resource";
          diagnostics.push(
            errorDiag(
              "Reference to undeclared resource",
              `A ${what} ${JSON.stringify(r.type)} ${JSON.stringify(r.name)} has not been declared in ${moduleDisplay(path)}.`,
              ref.sourceRange,
            ),
          );
          break;
        }
        const table = r.mode === "data" ? data : r.mode === "ephemeral" ? ephemeral : managed;
        let byName = table.get(r.type);
        if (!byName) table.set(r.type, (byName = new Map()));
        if (!byName.has(r.name)) byName.set(r.name, resourceValue(run, req.module, rc));
        break;
      }
      case "ModuleCall":
      case "ModuleCallInstance":
      case "ModuleCallInstanceOutput": {
        const name = s.kind === "ModuleCall" ? s.name : s.kind === "ModuleCallInstance" ? s.call.name : s.call.call.name;
        if (!mod.moduleCalls.has(name)) {
          diagnostics.push(errorDiag("Reference to undeclared module", `No module call named ${JSON.stringify(name)} is declared in ${moduleDisplay(path)}.`, ref.sourceRange));
          break;
        }
        if (!calls.has(name)) calls.set(name, moduleCallValue(run, req.module, name));
        if (s.kind === "ModuleCallInstanceOutput") {
          const call = mod.moduleCalls.get(name);
          const output = cfg.children.get(name)?.module.outputs.get(s.name);
          const warning = call && output && ref.sourceRange ? deprecatedOutputWarning(call, output, s.toString(), ref.sourceRange, run.opts.deprecationWarnings) : undefined;
          if (warning) diagnostics.push(warning);
        }
        break;
      }
      case "CountAttr":
      case "ForEachAttr": {
        // Where count or for_each is set, a wrong attribute name fails the evaluation itself.
        const repeated = s.kind === "CountAttr" ? req.hasCount : req.hasForEach;
        const problem = repeated || s.name === "" ? undefined : s.kind === "CountAttr" ? countAttrProblem(s.name, false, ref.sourceRange) : eachAttrProblem(s.name, false, ref.sourceRange);
        if (problem) diagnostics.push(problem);
        break;
      }
      default:
        break;
    }
  }

  if (varNames.size > 0) {
    const attrs = new Map<string, Value>();
    for (const name of mod.variables.keys()) attrs.set(name, run.values.get("var", req.module, name) ?? DynamicVal);
    vars.set("var", objectVal(attrs));
  }
  if (localNames.size > 0) {
    const attrs = new Map<string, Value>();
    for (const name of mod.locals.keys()) attrs.set(name, run.values.get("local", req.module, name) ?? DynamicVal);
    vars.set("local", objectVal(attrs));
  }
  for (const [type, byName] of managed) vars.set(type, objectVal(byName));
  if (data.size > 0) {
    const attrs = new Map<string, Value>();
    for (const [type, byName] of data) attrs.set(type, objectVal(byName));
    vars.set("data", objectVal(attrs));
  }
  if (ephemeral.size > 0) {
    const attrs = new Map<string, Value>();
    for (const [type, byName] of ephemeral) attrs.set(type, objectVal(byName));
    vars.set("ephemeral", objectVal(attrs));
  }
  if (calls.size > 0) vars.set("module", objectVal(calls));
  vars.set(
    "path",
    objectVal({ module: stringVal(mod.sourceDir === "" ? "." : mod.sourceDir), root: stringVal(run.config.module.sourceDir || "."), cwd: stringVal(run.opts.cwd) }),
  );
  const ws = objectVal({ workspace: stringVal(run.opts.workspace) });
  vars.set("terraform", ws);
  vars.set("tofu", ws);
  if (req.repetition.countIndex) vars.set("count", objectVal({ index: req.repetition.countIndex }));
  if (req.repetition.eachKey && req.repetition.eachValue) vars.set("each", objectVal({ key: req.repetition.eachKey, value: req.repetition.eachValue }));
  return { ctx: new EvalContext(vars, run.functions(path, req.module)), diagnostics };
}
