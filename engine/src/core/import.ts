// Importing existing objects (OpenTofu's ImportResolver in context_import.go, eval_import.go, the
// importState path of node_resource_plan_instance.go and node_resource_import.go): `import`
// blocks are resolved when their target resource expands (for_each on the block, `id`, the keys
// of `to`, all in the root module's scope); a planned instance with a resolved target and no
// object in state is imported (ImportResourceState on the provider instance the resource
// instance binds to, then ReadResource) and planned against that object, its change carrying
// `importing`. `terrace import` uses the same walk (Context.import) with the command-line target
// registered up front and planning switched off, and writes the imported object as OpenTofu's
// graphNodeImportState does.
import {
  RootModuleInstance,
  parseAbsResourceInstance,
  type AbsResourceInstance,
  type Traversal,
} from "../addrs/index.js";
import { evaluateForEachExpression, exprVariables, resourceAddrString, type Config, type Import, type Resource } from "../configs/index.js";
import type { InputValue } from "../configs/inputvars/index.js";
import { errorDiag, formatRange, hasErrors, type AnyExpression, type Diagnostic, type Expression, type LiteralValue, type Traverser } from "../hcl/index.js";
import { evaluateAny } from "../lang/eval/index.js";
import { impliedType } from "../providers/index.js";
import type { Importing } from "../plans/index.js";
import { NotDeposed } from "../states/index.js";
import { SENSITIVE, StringType, convert, formatPathError, isWhollyKnown, stringVal, unmark, type Value } from "../values/index.js";
import { providerDiagnostics } from "./diags.js";
import { evalScope } from "./evaluate.js";
import { NO_REPETITION, expansionHasKey, type RepetitionData } from "./expand.js";
import { remark, unmarkForProvider, writeObject, type InstanceProvider } from "./instance.js";
import type { GraphNode } from "./nodes.js";
import type { RunState } from "./run.js";
import { markSensitiveBySchema } from "./schemabody.js";

/** One resource instance to import (OpenTofu's EvaluatedConfigImportTarget). */
export interface ImportTarget {
  readonly addr: AbsResourceInstance;
  readonly id: string;
  /** The block's `identity` instead of an ID: an object of the resource type's identity schema. */
  readonly identity?: Value;
  /** The import block it came from; undefined for `terrace import`. */
  readonly config: Import | undefined;
}

/** A target given on the command line (`terrace import ADDR ID`). */
export interface CommandLineImportTarget {
  readonly addr: AbsResourceInstance;
  readonly id: string;
}

export interface ImportOpts {
  readonly targets: readonly CommandLineImportTarget[];
  /** Root module variables as the caller set them. */
  readonly variables?: ReadonlyMap<string, InputValue>;
}

/** The import targets of one walk, by instance address. */
export class ImportResolver {
  private readonly byAddr = new Map<string, ImportTarget>();

  /** `terrace import`: the target is known before the walk. */
  addCommandLineTarget(t: CommandLineImportTarget): void {
    this.byAddr.set(t.addr.toString(), { addr: t.addr, id: t.id, config: undefined });
  }

  get(addr: AbsResourceInstance): ImportTarget | undefined {
    return this.byAddr.get(addr.toString());
  }

  all(): ImportTarget[] {
    return [...this.byAddr.values()];
  }

  /** Registers one resolved import block instance; a second one for the same address is an error. */
  add(t: ImportTarget & { config: Import }): Diagnostic[] {
    const key = t.addr.toString();
    const existing = this.byAddr.get(key);
    if (existing?.config) {
      return [
        errorDiag(
          `Duplicate import configuration for ${JSON.stringify(key)}`,
          `An import block for the resource ${JSON.stringify(key)} was already declared at ${formatRange(existing.config.declRange)}. A resource can have only one import block.`,
          existing.config.declRange,
        ),
      ];
    }
    this.byAddr.set(key, t);
    return [];
  }
}

function staticToString(imp: Import): string | undefined {
  const to = imp.staticTo;
  if (!to?.resource) return undefined;
  const r = to.resource;
  const res = r.mode === "data" ? `data.${r.type}.${r.name}` : `${r.type}.${r.name}`;
  return [...to.module.map((m) => `module.${m}`), res].join(".");
}

/** Whether an import block names the resource `rc` in the module at static path `module`. */
function importNames(imp: Import, module: readonly string[], rc: Resource): boolean {
  const to = imp.staticTo;
  if (!to?.resource || rc.mode !== "managed") return false;
  return (
    to.resource.mode === "managed" &&
    to.resource.type === rc.type &&
    to.resource.name === rc.name &&
    to.module.length === module.length &&
    to.module.every((m, i) => m === module[i])
  );
}

function importConfigMissing(address: string, imp: Import | undefined): Diagnostic {
  return errorDiag(
    "Configuration for import target does not exist",
    `The configuration for the given import ${address} does not exist. All target instances must have an associated configuration to be imported.`,
    imp?.declRange,
  );
}

/**
 * Context.validateImportTargets without config generation: every import block must name a
 * managed resource the configuration declares (checked before the walk).
 */
export function validateImportTargets(config: Config): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const imp of config.module.imports) {
    const to = imp.staticTo;
    const address = staticToString(imp);
    if (!to?.resource || address === undefined) continue;
    let c: Config | undefined = config;
    for (const step of to.module) c = c?.children.get(step);
    const declared = to.resource.mode === "managed" && c?.module.managedResources.has(`${to.resource.type}.${to.resource.name}`);
    if (!declared) diagnostics.push(importConfigMissing(address, imp));
  }
  return diagnostics;
}

/**
 * The traversals the import blocks naming a root-module resource read (for_each, id, the keys
 * of `to`): the resource's graph node must wait for them.
 */
export function importBlockReferences(config: Config, module: readonly string[], rc: Resource): Traverser[][] {
  if (module.length > 0) return [];
  const t: Traverser[][] = [];
  for (const imp of config.module.imports) {
    if (!importNames(imp, module, rc)) continue;
    if (imp.forEach) t.push(...exprVariables(imp.forEach));
    if (imp.id) t.push(...exprVariables(imp.id));
    if (imp.identity) t.push(...exprVariables(imp.identity));
    if (imp.to) t.push(...toKeyReferences(imp.to as Expression));
  }
  return t;
}

/** What the index keys of `to` read (its base names the target itself, which is no dependency). */
function toKeyReferences(e: Expression): Traverser[][] {
  switch (e.kind) {
    case "Index":
      return [...toKeyReferences(e.collection), ...exprVariables(e.key)];
    case "RelativeTraversal":
      return toKeyReferences(e.source);
    default:
      return [];
  }
}

/** The expression in the root module's scope, with `each` bound when the block has for_each. */
function evalInRoot(run: RunState, expr: AnyExpression, rep: RepetitionData, hasForEach: boolean): { value: Value | undefined; diagnostics: Diagnostic[] } {
  const scope = evalScope(run, { module: RootModuleInstance, repetition: rep, hasForEach }, exprVariables(expr));
  const diagnostics = [...scope.diagnostics];
  if (hasErrors(diagnostics)) return { value: undefined, diagnostics };
  const r = evaluateAny(expr, scope.ctx);
  diagnostics.push(...r.diagnostics);
  return { value: hasErrors(r.diagnostics) ? undefined : r.value, diagnostics };
}

/** evaluateImportIdExpression. */
function evaluateImportId(run: RunState, expr: AnyExpression, rep: RepetitionData, hasForEach: boolean): { id: string | undefined; diagnostics: Diagnostic[] } {
  const r = evalInRoot(run, expr, rep, hasForEach);
  const diagnostics = [...r.diagnostics];
  if (!r.value) return { id: undefined, diagnostics };
  const fail = (detail: string) => ({ id: undefined, diagnostics: [...diagnostics, errorDiag("Invalid import id argument", detail, expr.range)] });
  const c = convert(r.value, StringType);
  if (!c.ok) return fail(`The import ID value is unsuitable: ${formatPathError(c.error)}.`);
  const [v, marks] = unmark(c.value);
  if (v.kind === "null") return fail("The import ID cannot be null.");
  if (v.kind === "unknown") {
    return fail('The import block "id" argument depends on resource attributes that cannot be determined until apply, so OpenTofu cannot plan to import this resource.');
  }
  if (marks.has(SENSITIVE)) return fail("The import ID cannot be sensitive.");
  return { id: v.kind === "string" ? v.value : "", diagnostics };
}

/** The `identity` argument: a known, non-null object (the provider checks it against its identity schema). */
function evaluateImportIdentity(run: RunState, expr: AnyExpression, rep: RepetitionData, hasForEach: boolean): { id: string | undefined; identity?: Value; diagnostics: Diagnostic[] } {
  const r = evalInRoot(run, expr, rep, hasForEach);
  const diagnostics = [...r.diagnostics];
  if (!r.value) return { id: undefined, diagnostics };
  const fail = (detail: string) => ({ id: undefined, diagnostics: [...diagnostics, errorDiag("Invalid import identity argument", detail, expr.range)] });
  const [v, marks] = unmark(r.value);
  if (v.kind === "null") return fail("The import identity cannot be null.");
  if (!isWhollyKnown(v)) {
    return fail('The import block "identity" argument depends on resource attributes that cannot be determined until apply, so OpenTofu cannot plan to import this resource.');
  }
  if (marks.has(SENSITIVE)) return fail("The import identity cannot be sensitive.");
  if (v.kind !== "object" && v.kind !== "map") return fail("The import identity must be an object.");
  return { id: "", identity: v, diagnostics };
}

const INVALID_KEY = "Import block 'to' address contains an invalid key";

/** parseImportIndexKeyExpr: an index of `to` evaluated to a literal instance key. */
function importIndexKey(run: RunState, expr: Expression, rep: RepetitionData, hasForEach: boolean): { key: LiteralValue | undefined; diagnostics: Diagnostic[] } {
  const r = evalInRoot(run, expr, rep, hasForEach);
  const diagnostics = [...r.diagnostics];
  if (!r.value) return { key: undefined, diagnostics };
  const fail = (detail: string) => ({ key: undefined, diagnostics: [...diagnostics, errorDiag(INVALID_KEY, detail, expr.range)] });
  const [v, marks] = unmark(r.value);
  if (v.kind === "unknown") {
    return fail(
      "Import block contained a resource address using an index that will only be known after apply. Please ensure to use expressions that are known at plan time for the index of an import target address",
    );
  }
  if (v.kind === "null") return fail("Import block contained a resource address using an index which is null. Please ensure the expression for the index is not null");
  if (v.kind !== "string" && v.kind !== "number") {
    return fail(
      "Import block contained a resource address using an index which is not valid for a resource instance (not a string or a number). Please ensure the expression for the index is correct, and returns either a string or a number",
    );
  }
  if (marks.has(SENSITIVE)) {
    return fail(
      "Import block contained a resource address using an index which is sensitive. Please ensure indexes used in the resource address of an import target are not sensitive",
    );
  }
  return { key: v.kind === "string" ? { type: "string", value: v.value } : { type: "number", text: v.value.toString() }, diagnostics };
}

/** traversalForImportExpr: `to` with its dynamic index keys evaluated. */
function importTraversal(run: RunState, e: Expression, rep: RepetitionData, hasForEach: boolean): { traversal: Traverser[]; diagnostics: Diagnostic[] } {
  switch (e.kind) {
    case "Index": {
      const base = importTraversal(run, e.collection, rep, hasForEach);
      const k = importIndexKey(run, e.key, rep, hasForEach);
      const traversal = k.key ? [...base.traversal, { kind: "Index" as const, key: k.key, range: e.key.range }] : base.traversal;
      return { traversal, diagnostics: [...base.diagnostics, ...k.diagnostics] };
    }
    case "RelativeTraversal": {
      const base = importTraversal(run, e.source, rep, hasForEach);
      return { traversal: [...base.traversal, ...e.traversal], diagnostics: base.diagnostics };
    }
    case "ScopeTraversal":
      return { traversal: [...e.traversal], diagnostics: [] };
    default:
      // The loader rejected every other form already.
      return { traversal: [], diagnostics: [errorDiag("Invalid import address expression", "Import address must be a reference to a resource's address.", e.range)] };
  }
}

/** resolveImport: one instance of an import block (one for_each element, or the block itself). */
function resolveOne(run: RunState, imp: Import, rep: RepetitionData): Diagnostic[] {
  const hasForEach = imp.forEach !== undefined;
  // The loader requires exactly one of id and identity.
  const id: { id: string | undefined; identity?: Value; diagnostics: Diagnostic[] } | undefined = imp.id
    ? evaluateImportId(run, imp.id, rep, hasForEach)
    : imp.identity
      ? evaluateImportIdentity(run, imp.identity, rep, hasForEach)
      : undefined;
  if (!id || id.id === undefined || !imp.to) return id?.diagnostics ?? [];
  const diagnostics = [...id.diagnostics];
  const t = importTraversal(run, imp.to as Expression, rep, hasForEach);
  diagnostics.push(...t.diagnostics);
  if (hasErrors(diagnostics)) return diagnostics;
  const a = parseAbsResourceInstance(t.traversal as Traversal);
  diagnostics.push(...a.diagnostics);
  if (!a.result || hasErrors(a.diagnostics)) return diagnostics;
  diagnostics.push(...run.imports.add({ addr: a.result, id: id.id, ...(id.identity ? { identity: id.identity } : {}), config: imp }));
  return diagnostics;
}

/**
 * ExpandAndResolveImport for every import block naming the resource of node `n` (normal plans
 * only: destroy and refresh-only plans, and `terrace import`, ignore import blocks).
 */
export function resolveImportBlocks(run: RunState, n: Extract<GraphNode, { kind: "resource" }>): Diagnostic[] {
  if (run.opts.operation !== "plan" || run.opts.destroy || run.opts.refreshOnly) return [];
  const diagnostics: Diagnostic[] = [];
  for (const imp of run.config.module.imports) {
    if (!importNames(imp, n.module, n.config)) continue;
    if (!imp.forEach) {
      diagnostics.push(...resolveOne(run, imp, NO_REPETITION));
      continue;
    }
    const forEach = imp.forEach;
    const fe = evaluateForEachExpression(forEach, () => evalScope(run, { module: RootModuleInstance, repetition: NO_REPETITION }, exprVariables(forEach)));
    diagnostics.push(...fe.diagnostics);
    if (hasErrors(fe.diagnostics)) continue;
    for (const [k, v] of fe.instances) diagnostics.push(...resolveOne(run, imp, { eachKey: stringVal(k), eachValue: v }));
  }
  return diagnostics;
}

/** The import target for an instance, when it has one and nothing is in state for it yet (shouldImport). */
export function importTargetFor(run: RunState, addr: AbsResourceInstance): ImportTarget | undefined {
  const t = run.imports.get(addr);
  if (!t) return undefined;
  // `terrace import` reports an address already in state itself (after asking the provider).
  if (t.config === undefined) return t;
  return run.state.resourceInstance(addr) ? undefined : t;
}

/** postExpansionImportValidation: every resolved target must be an instance the configuration declares. */
export function postExpansionImportValidation(run: RunState): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const t of run.imports.all()) {
    const res = t.addr.resource.resource;
    const e = run.expander.resourceExpansion(t.addr.module, resourceAddrString({ mode: res.mode, type: res.type, name: res.name }));
    if (!e || !expansionHasKey(e, t.addr.resource.key)) diagnostics.push(importConfigMissing(t.addr.toString(), undefined));
  }
  return diagnostics;
}

/** Picks the one object ImportResourceState returned (importState's checks). */
function singleImported(
  target: ImportTarget,
  imported: readonly { typeName: string; state: Value; private: Uint8Array }[],
  forCLI: boolean,
): { obj: { typeName: string; state: Value; private: Uint8Array } | undefined; diagnostics: Diagnostic[] } {
  if (imported.length === 0) {
    return {
      obj: undefined,
      diagnostics: [errorDiag("Import returned no resources", `While attempting to import with ID ${target.id}, the providerreturned no instance states.`)],
    };
  }
  if (imported.length > 1) {
    return {
      obj: undefined,
      diagnostics: [
        errorDiag(
          "Multiple import states not supported",
          `While attempting to import with ID ${target.id}, the provider returned multiple resource instance states. This is not currently supported.`,
        ),
      ],
    };
  }
  const obj = imported[0];
  if (!obj) return { obj: undefined, diagnostics: [] };
  if (obj.typeName === "") return { obj: undefined, diagnostics: [errorDiag(`import of ${target.addr.toString()} didn't set type`, "")] };
  if (!forCLI && obj.state.kind === "null") {
    return {
      obj: undefined,
      diagnostics: [errorDiag("Import returned null resource", `While attempting to import with ${target.id}, the provider returned an instance with no state.`)],
    };
  }
  return { obj, diagnostics: [] };
}

function nonExistent(addr: AbsResourceInstance, forCLI: boolean): Diagnostic {
  // The plan-time text mentions identities, the command's does not (as in OpenTofu).
  const what = forCLI ? "id" : "id or identity";
  return errorDiag(
    "Cannot import non-existent remote object",
    `While attempting to import an existing object to ${JSON.stringify(addr.toString())}, the provider detected that no object exists with the given ${what}. Only pre-existing objects can be imported; check that the ${what} is correct and that it is associated with the provider's configured region or endpoint, or use "tofu apply" to create a new remote object for this resource.`,
  );
}

export interface ImportedObject {
  readonly value: Value;
  readonly private: Uint8Array | undefined;
}

/**
 * Imports one instance: ImportResourceState on its provider instance, then ReadResource, and
 * writes the object to the walk's state (and, during a plan, to the previous-run state, so the
 * import does not show as drift). Undefined with error diagnostics when it fails.
 */
export async function importInstance(
  run: RunState,
  addr: AbsResourceInstance,
  ip: InstanceProvider,
  target: ImportTarget,
  createBeforeDestroy: boolean,
): Promise<{ object: ImportedObject | undefined; diagnostics: Diagnostic[] }> {
  const forCLI = target.config === undefined;
  const hooks = run.opts.hooks;
  if (forCLI) hooks.preImportState?.(addr, target.id);
  else hooks.prePlanImport?.(addr, target.id);
  const typeName = addr.resource.resource.type;
  const resp = await ip.provider.importResourceState({ typeName, id: target.id, ...(target.identity ? { identity: target.identity } : {}) });
  const diagnostics = providerDiagnostics(resp.diagnostics, target.config?.declRange);
  if (hasErrors(diagnostics)) return { object: undefined, diagnostics };
  if (forCLI) hooks.postImportState?.(addr, resp.importedResources.map((r) => r.typeName));
  const one = singleImported(target, resp.importedResources, forCLI);
  diagnostics.push(...one.diagnostics);
  if (!one.obj) return { object: undefined, diagnostics };
  if (forCLI && run.state.resourceInstance(addr)) {
    diagnostics.push(
      errorDiag(
        "Resource already managed by OpenTofu",
        `OpenTofu is already managing a remote object for ${addr.toString()}. To import to this address you must first remove the existing object from the state.`,
      ),
    );
    return { object: undefined, diagnostics };
  }
  const ty = impliedType(ip.schema.block);
  const c = convert(one.obj.state, ty);
  if (!c.ok) {
    diagnostics.push(errorDiag("Invalid imported object", `The provider returned an object that does not match the schema of ${typeName}: ${formatPathError(c.error)}.`));
    return { object: undefined, diagnostics };
  }

  // The refresh that follows every import.
  const imported = markSensitiveBySchema(ip.schema.block, c.value);
  hooks.preRefresh?.(addr, NotDeposed, imported);
  const [plain, pvm] = unmarkForProvider(imported);
  const importedPrivate = one.obj.private.length > 0 ? one.obj.private : undefined;
  const read = await ip.provider.readResource({ typeName, priorState: plain, ...(importedPrivate ? { private: importedPrivate } : {}) });
  diagnostics.push(...providerDiagnostics(read.diagnostics, target.config?.declRange));
  if (hasErrors(diagnostics)) return { object: undefined, diagnostics };
  // As OpenTofu's refresh does, before importState looks at what the read found.
  hooks.postRefresh?.(addr, NotDeposed, imported, read.newState);
  if (read.newState.kind === "null" || !isWhollyKnown(read.newState)) {
    diagnostics.push(nonExistent(addr, forCLI));
    return { object: undefined, diagnostics };
  }
  const value = markSensitiveBySchema(ip.schema.block, remark(read.newState, pvm));
  const priv = read.private.length > 0 ? read.private : importedPrivate;
  const opts = { status: "ready" as const, dependencies: [], createBeforeDestroy, ...(priv ? { private: priv } : {}) };
  diagnostics.push(...writeObject(run, addr, ip, value, opts));
  if (run.prevRunState) diagnostics.push(...writeObject(run, addr, ip, value, opts, run.prevRunState));
  return { object: { value, private: priv }, diagnostics };
}

/** The `importing` part of a planned change (import blocks only: `terrace import` plans nothing). */
export function importingChange(t: ImportTarget | undefined): { importing?: Importing } {
  return t && t.config !== undefined ? { importing: { id: t.id, ...(t.identity ? { identity: t.identity } : {}) } } : {};
}
