// What planning and applying a resource instance share: the provider instance it uses
// (resolving `provider = x.y[key]` per instance, OpenTofu's resolveProviderInstance), its schema,
// reading its prior object from state (UpgradeResourceState), evaluating its configuration, and
// writing objects back to state.
import {
  NoKey,
  parseInstanceKey,
  type AbsProviderConfig,
  type AbsResourceInstance,
  type ConfigResource,
  type InstanceKey,
} from "../addrs/index.js";
import { instanceKeyString } from "../addrs/index.js";
import type { Resource } from "../configs/index.js";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import { evaluateAny } from "../lang/eval/index.js";
import { impliedType, type Provider, type Schema } from "../providers/index.js";
import { encodeObject, type ObjectStatus, type ResourceInstanceObjectSrc } from "../states/index.js";
import {
  EPHEMERAL,
  SENSITIVE,
  StringType,
  convert,
  formatPathError,
  markWithPaths,
  nullVal,
  unmark,
  unmarkDeepWithPaths,
  type Path,
  type PathValueMarks,
  type Value,
} from "../values/index.js";
import { exprVariables } from "../configs/index.js";
import { providerDiagnostics } from "./diags.js";
import { evalScope } from "./evaluate.js";
import { type RepetitionData } from "./expand.js";
import { resolveResourceProvider } from "./providerconfig.js";
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
    const r = resolveProviderInstanceKey(run, addr, resolved.keyExpression, rep, rc);
    diagnostics.push(...r.diagnostics);
    if (!r.key) return { result: undefined, diagnostics };
    key = r.key;
    if (resolved.config?.instances && key.kind === "StringKey" && !resolved.config.instances.has(key.value)) {
      diagnostics.push(
        errorDiag(
          "Invalid provider instance key",
          `The provider configuration ${resolved.addr.toString()} has no instance with the key ${instanceKeyString(key).slice(1, -1)}.`,
          resolved.keyExpression.range,
        ),
      );
      return { result: undefined, diagnostics };
    }
  }
  const provider = run.providers.instance(resolved.addr, key);
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

/** OpenTofu's resolveProviderInstance: the key expression in the resource instance's scope. */
function resolveProviderInstanceKey(
  run: RunState,
  addr: AbsResourceInstance,
  expr: NonNullable<Resource["forEach"]>,
  rep: RepetitionData,
  rc: Resource,
): { key: InstanceKey | undefined; diagnostics: Diagnostic[] } {
  const scope = evalScope(run, { module: addr.module, repetition: rep, hasCount: !!rc.count, hasForEach: !!rc.forEach }, exprVariables(expr));
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
      `The provider instance key for ${addr.toString()} depends on values that cannot be determined until apply, and so OpenTofu cannot select a provider instance to create a plan for this resource instance.`,
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

/** The instance's configuration decoded against its schema, in its own scope. */
export function evalInstanceConfig(run: RunState, addr: AbsResourceInstance, rc: Resource, rep: RepetitionData, schema: Schema): { value: Value; diagnostics: Diagnostic[] } {
  const scope = evalScope(run, { module: addr.module, repetition: rep, hasCount: !!rc.count, hasForEach: !!rc.forEach }, blockReferences(rc.config, schema.block));
  const diagnostics = [...scope.diagnostics];
  if (hasErrors(diagnostics)) return { value: nullVal(impliedType(schema.block)), diagnostics };
  const d = decodeBody(rc.config, schema.block, scope.ctx);
  diagnostics.push(...d.diagnostics);
  return { value: d.value, diagnostics };
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

/** Writes an object for the instance (its value carrying sensitive marks) into the walk's state. */
export function writeObject(
  run: RunState,
  addr: AbsResourceInstance,
  ip: Pick<InstanceProvider, "addr" | "key" | "schema">,
  value: Value,
  opts: { private?: Uint8Array; status: ObjectStatus; dependencies: ConfigResource[]; createBeforeDestroy: boolean; deposedKey?: string },
): Diagnostic[] {
  const ty = impliedType(ip.schema.block);
  const enc = encodeObject(
    { value, status: opts.status, dependencies: opts.dependencies, createBeforeDestroy: opts.createBeforeDestroy, skipDestroy: false, ...(opts.private ? { private: opts.private } : {}) },
    ty,
    ip.schema.version,
  );
  if (!enc.ok) return [errorDiag("Failed to encode resource state", `Error encoding ${addr.toString()}: ${enc.error}.`)];
  if (opts.deposedKey) run.state.setResourceInstanceDeposed(addr, opts.deposedKey, enc.value, ip.addr, ip.key);
  else run.state.setResourceInstanceCurrent(addr, enc.value, ip.addr, ip.key);
  return [];
}

/** Splits a marked value into the plain value for the provider and the marks to put back. */
export function unmarkForProvider(v: Value): [Value, PathValueMarks[]] {
  return unmarkDeepWithPaths(v);
}
