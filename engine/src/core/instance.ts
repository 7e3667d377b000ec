// What planning and applying a resource instance share: the provider instance it uses
// (resolving `provider = x.y[key]` per instance, OpenTofu's resolveProviderInstance), its schema,
// reading its prior object from state (UpgradeResourceState), evaluating its configuration, and
// writing objects back to state.
import {
  ModuleInstance,
  NoKey,
  parseInstanceKey,
  type AbsProviderConfig,
  type AbsResourceInstance,
  type ConfigResource,
  type InstanceKey,
} from "../addrs/index.js";
import type { Resource } from "../configs/index.js";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import { evaluateAny } from "../lang/eval/index.js";
import { impliedType, type Provider, type Schema } from "../providers/index.js";
import { encodeObject, type ObjectStatus, type ResourceInstanceObjectSrc, type SyncState } from "../states/index.js";
import {
  EPHEMERAL,
  NumberType,
  SENSITIVE,
  StringType,
  attrStep,
  convert,
  equals,
  formatPathError,
  formatValue,
  friendlyName,
  indexStep,
  markWithPaths,
  nullVal,
  numberIntVal,
  pathError,
  rawEquals,
  typeEquals,
  unknownVal,
  unmark,
  unmarkDeepWithPaths,
  type Path,
  type PathError,
  type PathValueMarks,
  type Type,
  type Value,
} from "../values/index.js";
import { exprVariables } from "../configs/index.js";
import { providerDiagnostics } from "./diags.js";
import { ephemeralArgumentDiagnostics } from "./ephemeral_values.js";
import { evalScope } from "./evaluate.js";
import { type RepetitionData } from "./expand.js";
import { resolveResourceProvider } from "./providerconfig.js";
import { providerInstanceNotPresent } from "./provider_missing.js";
import type { RunState } from "./run.js";
import { blockReferences, decodeBody, markSensitiveBySchema } from "./schemabody.js";

export interface InstanceProvider {
  readonly addr: AbsProviderConfig;
  readonly key: InstanceKey;
  readonly provider: Provider;
  readonly schema: Schema;
}

/** The provider configuration and instance key a resource instance uses, with its schema. */
export function instanceProvider(
  run: RunState,
  addr: AbsResourceInstance,
  rc: Resource,
  module: readonly string[],
  rep: RepetitionData,
): { result: InstanceProvider | undefined; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const mc = run.moduleConfig(module);
  const resolved = mc ? resolveResourceProvider(mc, rc) : undefined;
  if (!resolved || !rc.provider) {
    return { result: undefined, diagnostics: [errorDiag("Provider configuration not present", `No provider configuration found for ${addr.toString()}.`, rc.declRange)] };
  }
  let key: InstanceKey = NoKey;
  if (resolved.keyExpression) {
    const r = resolveProviderInstanceKey(run, addr.toString(), resolved.keyExpression, keyScope(run, addr, resolved.keyModule, rep, rc));
    diagnostics.push(...r.diagnostics);
    if (!r.key) return { result: undefined, diagnostics };
    key = r.key;
    if (resolved.config?.instances && key.kind === "StringKey" && !resolved.config.instances.has(key.value)) {
      diagnostics.push(providerInstanceNotPresent(addr, resolved.addr, key));
      return { result: undefined, diagnostics };
    }
  }
  const provider = run.providers.forResource(addr, resolved.addr, key);
  const schema = run.providers.resourceTypeSchema(rc.provider, rc.mode, rc.type);
  if (!schema) {
    const what = rc.mode === "data" ? "data source" : "resource type";
    diagnostics.push(errorDiag(`Invalid ${what}`, `The provider ${rc.provider.forDisplay()} does not support ${what} ${JSON.stringify(rc.type)}.`, rc.typeRange));
    return { result: undefined, diagnostics };
  }
  if (!provider) {
    diagnostics.push(errorDiag("Provider instance not present", `The provider instance ${resolved.addr.instanceString(key)} is not configured.`, rc.declRange));
    return { result: undefined, diagnostics };
  }
  run.providerKeys.set(addr.toString(), key);
  return { result: { addr: resolved.addr, key, provider, schema }, diagnostics };
}

type KeyScope = Parameters<typeof evalScope>[1];

/**
 * Where a provider key expression is evaluated: a resource's own `provider = x.y[key]` in the
 * resource instance's scope; a module call's `providers = { x = y.z[key] }` in the calling
 * module's scope with the call instance's each/count (resolveProviderModuleInstance).
 */
function keyScope(run: RunState, addr: AbsResourceInstance, keyModule: readonly string[] | undefined, rep: RepetitionData, rc: Resource): KeyScope {
  if (!keyModule) return { module: addr.module, repetition: rep, hasCount: !!rc.count, hasForEach: !!rc.forEach };
  return moduleCallKeyScope(run, addr.module, keyModule);
}

/** Where `providers = { x = y.z[key] }` of the call at `keyModule` is evaluated for `caller`, an instance in it. */
function moduleCallKeyScope(run: RunState, caller: ModuleInstance, keyModule: readonly string[]): KeyScope {
  const inst = new ModuleInstance(caller.steps.slice(0, keyModule.length));
  const call = run.moduleConfig(keyModule.slice(0, -1))?.module.moduleCalls.get(keyModule[keyModule.length - 1] ?? "");
  return { module: inst.parent(), repetition: run.expander.moduleRepetitionData(inst), hasCount: !!call?.count, hasForEach: !!call?.forEach };
}

/**
 * The provider instance key for a provider-defined function call made in `caller`, when the
 * configuration serving it was passed in with a key (OpenTofu's resolveProviderModuleInstance in
 * its function scope); `what` names the call in messages.
 */
export function functionProviderKey(
  run: RunState,
  expr: NonNullable<Resource["forEach"]>,
  keyModule: readonly string[],
  caller: ModuleInstance,
  what: string,
): { key: InstanceKey | undefined; diagnostics: Diagnostic[] } {
  return resolveProviderInstanceKey(run, what, expr, moduleCallKeyScope(run, caller, keyModule));
}

/** OpenTofu's resolveProviderInstance: the key expression in its scope (keyScope). */
function resolveProviderInstanceKey(
  run: RunState,
  what: string,
  expr: NonNullable<Resource["forEach"]>,
  where: KeyScope,
): { key: InstanceKey | undefined; diagnostics: Diagnostic[] } {
  const scope = evalScope(run, where, exprVariables(expr));
  const diagnostics = [...scope.diagnostics];
  if (hasErrors(diagnostics)) return { key: undefined, diagnostics };
  const r = evaluateAny(expr, scope.ctx);
  diagnostics.push(...r.diagnostics);
  if (hasErrors(r.diagnostics)) return { key: undefined, diagnostics };
  const v = r.value;
  const fail = (detail: string) => ({ key: undefined, diagnostics: [...diagnostics, errorDiag("Invalid provider instance key", detail, expr.range)] });
  if (v.marks.has(SENSITIVE)) return fail("A provider instance key must not be derived from a sensitive value.");
  if (v.marks.has(EPHEMERAL)) return fail("A provider instance key must not be derived from an ephemeral value.");
  if (v.kind === "null") return fail("A provider instance key must not be null.");
  if (v.kind === "unknown") {
    return fail(
      `The provider instance key for ${what} depends on values that cannot be determined until apply, and so OpenTofu cannot select a provider instance to create a plan for this resource instance.`,
    );
  }
  const c = convert(unmark(v)[0], StringType);
  if (!c.ok) return fail(`The given instance key is unsuitable: ${formatPathError(c.error)}.`);
  const k = parseInstanceKey(c.value);
  if (k.error !== undefined) return fail(`The given instance key is unsuitable: ${k.error}.`);
  return { key: k.key, diagnostics };
}

/**
 * The prior object of an instance decoded against the current schema, upgraded by the provider
 * when it was written with another schema version (or in the legacy flatmap form).
 */
export async function readPriorObject(
  ip: InstanceProvider,
  typeName: string,
  src: ResourceInstanceObjectSrc,
  subject: Resource["declRange"] | undefined,
): Promise<{ value: Value | undefined; diagnostics: Diagnostic[] }> {
  const ty = impliedType(ip.schema.block);
  const req =
    src.attrsJSON !== undefined
      ? { typeName, version: src.schemaVersion, rawStateJSON: new TextEncoder().encode(src.attrsJSON) }
      : { typeName, version: src.schemaVersion, rawStateFlatmap: Object.fromEntries(src.attrsFlat ?? []) };
  const r = await ip.provider.upgradeResourceState(req);
  const diagnostics = providerDiagnostics(r.diagnostics, subject);
  if (hasErrors(diagnostics)) return { value: undefined, diagnostics };
  const c = convert(r.upgradedState, ty);
  if (!c.ok) {
    diagnostics.push(errorDiag("Invalid resource state upgrade", `The provider returned an invalid upgraded object: ${formatPathError(c.error)}.`, subject));
    return { value: undefined, diagnostics };
  }
  const marks = new Set([SENSITIVE]);
  const marked = markWithPaths(
    c.value,
    src.attrSensitivePaths.map((path) => ({ path, marks })),
  );
  return { value: markSensitiveBySchema(ip.schema.block, marked), diagnostics };
}

/** What an explicit `moved` block asks the provider to translate (refactoring's ProviderMove). */
export interface PriorMove {
  readonly prevRunAddr: AbsResourceInstance;
  readonly sourceProviderAddress: string;
  readonly sourceTypeName: string;
}

/**
 * The prior object of an instance an explicit `moved` block gave another type or provider
 * (OpenTofu's moveResourceState): the target's provider translates the source object, and the
 * result must conform to the target schema exactly, since it is then stored as such.
 */
export async function movePriorObject(
  ip: InstanceProvider,
  addr: AbsResourceInstance,
  move: PriorMove,
  src: ResourceInstanceObjectSrc,
  subject: Resource["declRange"] | undefined,
): Promise<{ value: Value | undefined; private: Uint8Array | undefined; diagnostics: Diagnostic[] }> {
  const providerType = addr.resource.resource.impliedProvider();
  const fail = (diagnostics: Diagnostic[]) => ({ value: undefined, private: undefined, diagnostics });
  if (src.schemaVersion > ip.schema.version) {
    return fail([
      errorDiag(
        "Resource instance managed by newer provider version",
        `The current state of ${addr.toString()} was created by a newer provider version than is currently selected. Upgrade the ${providerType} provider to work with this state.`,
      ),
    ]);
  }
  const r = await ip.provider.moveResourceState({
    sourceProviderAddress: move.sourceProviderAddress,
    sourceTypeName: move.sourceTypeName,
    sourceSchemaVersion: src.schemaVersion,
    // Legacy flatmap objects predate moved blocks by years; OpenTofu assumes JSON here too.
    sourceStateJSON: new TextEncoder().encode(src.attrsJSON ?? ""),
    ...(src.private ? { sourcePrivate: src.private } : {}),
    targetTypeName: addr.resource.resource.type,
  });
  const diagnostics = providerDiagnostics(r.diagnostics, subject);
  if (hasErrors(diagnostics)) return fail(diagnostics);
  const ty = impliedType(ip.schema.block);
  const errs = typeConformanceErrors(r.targetState.type, ty);
  if (errs.length > 0) {
    for (const e of errs) {
      diagnostics.push(
        errorDiag(
          "Invalid resource state transformation",
          `The ${providerType} provider changed the state for ${addr.toString()} from a previous version, but produced an invalid result: ${formatPathError(e)}.`,
          subject,
        ),
      );
    }
    return fail(diagnostics);
  }
  // The source's sensitive paths still hold where the target has the same attributes.
  const marks = new Set([SENSITIVE]);
  const value = markSensitiveBySchema(ip.schema.block, remark(r.targetState, src.attrSensitivePaths.map((path) => ({ path, marks }))));
  return { value, private: r.targetPrivate.length > 0 ? r.targetPrivate : undefined, diagnostics };
}

/**
 * cty's TestConformance: every way `given` differs from `want` (dynamic parts of `want` accept
 * anything). Attributes are reported in name order, where cty follows Go's map order.
 */
function typeConformanceErrors(given: Type, want: Type, path: Path = []): PathError[] {
  if (want.kind === "dynamic" || typeEquals(given, want)) return [];
  if (given.kind === "object" && want.kind === "object") {
    const errs: PathError[] = [];
    const names = (t: typeof given) => [...t.attributes.keys()].sort();
    for (const k of names(given)) if (!want.attributes.has(k)) errs.push(pathError(path, `unsupported attribute ${JSON.stringify(k)}`));
    for (const k of names(want)) if (!given.attributes.has(k)) errs.push(pathError(path, `missing required attribute ${JSON.stringify(k)}`));
    for (const k of names(want)) {
      const g = given.attributes.get(k);
      const w = want.attributes.get(k);
      if (g && w) errs.push(...typeConformanceErrors(g, w, [...path, attrStep(k)]));
    }
    return errs;
  }
  if (given.kind === "tuple" && want.kind === "tuple") {
    if (given.elements.length !== want.elements.length) {
      return [pathError(path, `${want.elements.length} elements are required, but got ${given.elements.length}`)];
    }
    return want.elements.flatMap((w, i) => typeConformanceErrors(given.elements[i] as Type, w, [...path, indexStep(numberIntVal(i))]));
  }
  if ((given.kind === "list" && want.kind === "list") || (given.kind === "map" && want.kind === "map") || (given.kind === "set" && want.kind === "set")) {
    const key = want.kind === "list" ? unknownVal(NumberType) : want.kind === "map" ? unknownVal(StringType) : unknownVal(given.element);
    return typeConformanceErrors(given.element, want.element, [...path, indexStep(key)]);
  }
  return [pathError(path, `${friendlyName(want)} required, but received ${friendlyName(given)}`)];
}

/** The instance's configuration decoded against its schema, in its own scope. */
export function evalInstanceConfig(run: RunState, addr: AbsResourceInstance, rc: Resource, rep: RepetitionData, schema: Schema): { value: Value; diagnostics: Diagnostic[] } {
  const scope = evalScope(run, { module: addr.module, repetition: rep, hasCount: !!rc.count, hasForEach: !!rc.forEach }, blockReferences(rc.config, schema.block));
  const diagnostics = [...scope.diagnostics];
  if (hasErrors(diagnostics)) return { value: nullVal(impliedType(schema.block)), diagnostics };
  const d = decodeBody(rc.config, schema.block, scope.ctx);
  diagnostics.push(...d.diagnostics);
  // Managed resources and data sources end up in state: ephemeral values only in write-only arguments.
  if (rc.mode !== "ephemeral") diagnostics.push(...ephemeralArgumentDiagnostics(d.value, schema.block, rc.config, addr.toString()));
  return { value: d.value, diagnostics };
}

/** Whether a planned object is the prior one unchanged (plans.NoOp): equal, wholly known values. */
export function sameObject(planned: Value, priorPlain: Value): boolean {
  const eq = equals(planned, priorPlain);
  return eq.kind === "bool" && eq.value && rawEquals(planned, priorPlain);
}

/** Whether two values carry sensitive marks at the same paths (a change there still updates state). */
export function sensitivePathsEqual(a: Value, b: Value): boolean {
  const paths = (v: Value) =>
    unmarkDeepWithPaths(v)[1]
      .filter((p) => p.marks.has(SENSITIVE))
      .map((p) => JSON.stringify(p.path.map((s) => (s.kind === "attr" ? s.name : formatValue(s.key)))))
      .sort();
  const pa = paths(a);
  const pb = paths(b);
  return pa.length === pb.length && pa.every((x, i) => x === pb[i]);
}

/** Re-applies marks taken off a value before it went to the provider, where the paths still exist. */
export function remark(v: Value, pvm: readonly PathValueMarks[]): Value {
  const ok = pvm.filter((p) => valueAtPath(v, p.path) !== undefined);
  return ok.length === 0 ? v : markWithPaths(v, ok);
}

/** hcl.ApplyPath without diagnostics: the value at the path, undefined when it does not exist. */
export function valueAtPath(v: Value, path: Path): Value | undefined {
  let cur: Value | undefined = v;
  for (const step of path) {
    if (!cur || cur.kind === "null" || cur.kind === "unknown") return cur && cur.kind === "unknown" ? cur : undefined;
    if (step.kind === "attr") {
      cur = cur.kind === "object" ? cur.attrs.get(step.name) : undefined;
      continue;
    }
    const k = step.key;
    if ((cur.kind === "map" || cur.kind === "object") && k.kind === "string") cur = cur.attrs.get(k.value);
    else if ((cur.kind === "list" || cur.kind === "tuple") && k.kind === "number") cur = cur.elements[Number(k.value.toBigInt() ?? -1)];
    else return undefined;
  }
  return cur;
}

/** Writes an object for the instance (its value carrying sensitive marks) into the walk's state (or `target`). */
export type WriteObjectOptions = { private?: Uint8Array; status: ObjectStatus; dependencies: ConfigResource[]; createBeforeDestroy: boolean; deposedKey?: string; skipDestroy?: boolean };

export function writeObject(
  run: RunState,
  addr: AbsResourceInstance,
  ip: Pick<InstanceProvider, "addr" | "key" | "schema">,
  value: Value,
  opts: WriteObjectOptions,
  target: SyncState = run.state,
): Diagnostic[] {
  return writeObjectTo(addr, ip, value, [{ target, opts }]);
}

/**
 * Writes one value into several states (each with its own object options), encoding the
 * attributes once: encoding is most of the cost, and refresh records every prior object twice.
 */
export function writeObjectTo(
  addr: AbsResourceInstance,
  ip: Pick<InstanceProvider, "addr" | "key" | "schema">,
  value: Value,
  writes: ReadonlyArray<{ target: SyncState; opts: WriteObjectOptions }>,
): Diagnostic[] {
  const first = writes[0];
  if (!first) return [];
  const ty = impliedType(ip.schema.block);
  const o = first.opts;
  const enc = encodeObject(
    { value, status: o.status, dependencies: o.dependencies, createBeforeDestroy: o.createBeforeDestroy, skipDestroy: false, ...(o.private ? { private: o.private } : {}) },
    ty,
    ip.schema.version,
  );
  if (!enc.ok) return [errorDiag("Failed to encode resource state", `Error encoding ${addr.toString()}: ${enc.error}.`)];
  for (const { target, opts } of writes) {
    const { private: _dropped, ...rest } = enc.value;
    const src = { ...rest, status: opts.status, dependencies: opts.dependencies, createBeforeDestroy: opts.createBeforeDestroy, skipDestroy: opts.skipDestroy ?? false, ...(opts.private && opts.private.length > 0 ? { private: opts.private } : {}) };
    if (opts.deposedKey) target.setResourceInstanceDeposed(addr, opts.deposedKey, src, ip.addr, ip.key);
    else target.setResourceInstanceCurrent(addr, src, ip.addr, ip.key);
  }
  return [];
}

/** Splits a marked value into the plain value for the provider and the marks to put back. */
export function unmarkForProvider(v: Value): [Value, PathValueMarks[]] {
  return unmarkDeepWithPaths(v);
}
