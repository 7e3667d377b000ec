// `show -json` of a plan, format version 1.2 (OpenTofu's internal/command/jsonplan), plus the
// parts the human renderer needs (MarshalForRenderer).
import type { Config } from "../configs/index.js";
import { newFile, type File } from "../states/model.js";
import {
  EmptyObjectVal,
  EmptyTupleVal,
  False,
  True,
  compareStrings,
  goJSONString,
  isWhollyKnown,
  marshalType,
  markWithPaths,
  objectVal,
  tupleVal,
  unmarkDeepWithPaths,
  nullVal,
  type Path,
  type Value,
} from "../values/index.js";
import { actionReasonJSON, actionStrings } from "./action.js";
import { isQuietNoOp, type OutputChange, type ResourceInstanceChange } from "./changes.js";
import { goArray, goBool, goMap, goObject, goString, omitEmptyArray, omitEmptyString } from "./gojson.js";
import { marshalCheckResults } from "./jsonchecks.js";
import { marshalConfigJSON, type ExpressionMarshaler } from "./jsonconfig.js";
import { attributeValuesJSON, marshalStateJSON, sensitiveAsBool, valueJSON, type MarshalResult } from "./jsonstate.js";
import type { Plan } from "./plan.js";
import { blockContainsSensitive, impliedType, schemaValueMarks, type Schemas } from "./schemas.js";

export const PLAN_FORMAT_VERSION = "1.2";

class PlanMarshalError extends Error {}

/**
 * omitUnknowns: unknowns dropped from mappings and replaced by nulls in sequences; sequences
 * become tuples and mappings objects (it is only serialised). Undefined stands for cty.NilVal.
 */
export function omitUnknowns(v: Value): Value | undefined {
  switch (v.kind) {
    case "null":
      return v;
    case "unknown":
      return undefined;
    case "string":
    case "number":
    case "bool":
      return v;
    case "list":
    case "set":
    case "tuple":
      return tupleVal(v.elements.map((e) => omitUnknowns(e) ?? nullVal(e.type)));
    case "map":
    case "object": {
      const attrs = new Map<string, Value>();
      for (const [k, e] of v.attrs) {
        const o = omitUnknowns(e);
        if (o !== undefined) attrs.set(k, o);
      }
      return objectVal(attrs);
    }
  }
}

/** unknownAsBool: the value's shape with unknown leaves true; mappings omit their false members. */
export function unknownAsBool(v: Value): Value {
  switch (v.kind) {
    case "null":
      return False;
    case "unknown":
      // cty falls through to BoolVal(!IsKnown()): every unknown is true, whatever its type.
      return True;
    case "string":
    case "number":
    case "bool":
      return False;
    case "list":
    case "set":
    case "tuple":
      if (v.elements.length === 0) return EmptyTupleVal;
      return tupleVal(v.elements.map(unknownAsBool));
    case "map":
    case "object": {
      const attrs = new Map<string, Value>();
      for (const [k, e] of v.attrs) {
        const b = unknownAsBool(e);
        if (!(b.kind === "bool" && !b.value)) attrs.set(k, b);
      }
      return objectVal(attrs);
    }
  }
}

/** encodePath: `["a",0,"b"]` (attribute names and string keys both as strings). */
export function encodePath(p: Path): string {
  return goArray(p.map((s) => (s.kind === "attr" ? goJSONString(s.name) : valueJSON(s.key))));
}

function lookupSchema(rc: ResourceInstanceChange, schemas: Schemas): NonNullable<ReturnType<Schemas["resourceTypeConfig"]>> {
  const r = rc.addr.resource.resource;
  const provider = rc.providerAddr.provider.toString();
  const s = schemas.resourceTypeConfig(provider, r.mode, r.type);
  if (!s) throw new PlanMarshalError(`no schema found for ${rc.addr.toString()} (in provider ${provider})`);
  return s;
}

function sensitiveJSON(v: Value, block: Parameters<typeof schemaValueMarks>[0]): string {
  const [plain, pvm] = unmarkDeepWithPaths(v);
  const marks = blockContainsSensitive(block) ? [...pvm, ...schemaValueMarks(block, plain)] : pvm;
  return valueJSON(sensitiveAsBool(markWithPaths(plain, marks)));
}

interface ChangeJSONParts {
  before?: string;
  after?: string;
  afterUnknown: string;
  beforeSensitive?: string;
  afterSensitive?: string;
}

function changeValuesJSON(before: Value | undefined, after: Value | undefined, knownAfterUnknown: Value): Omit<ChangeJSONParts, "beforeSensitive" | "afterSensitive"> {
  const out: Omit<ChangeJSONParts, "beforeSensitive" | "afterSensitive"> = { afterUnknown: valueJSON(EmptyObjectVal) };
  if (before !== undefined) out.before = valueJSON(unmarkDeepWithPaths(before)[0]);
  let afterUnknown: Value = knownAfterUnknown;
  if (after !== undefined) {
    const [plain] = unmarkDeepWithPaths(after);
    if (isWhollyKnown(plain)) {
      out.after = valueJSON(plain);
    } else {
      const filtered = omitUnknowns(plain);
      if (filtered !== undefined && filtered.kind !== "null") out.after = valueJSON(filtered);
      afterUnknown = unknownAsBool(plain);
    }
  }
  out.afterUnknown = valueJSON(afterUnknown);
  return out;
}

function changeObject(parts: ChangeJSONParts, actions: string[], extra: { replacePaths?: string; importing?: string; generatedConfig?: string }): string {
  return goObject([
    ["actions", omitEmptyArray(actions.map(goString))],
    ["before", parts.before],
    ["after", parts.after],
    ["after_unknown", parts.afterUnknown],
    ["before_sensitive", parts.beforeSensitive],
    ["after_sensitive", parts.afterSensitive],
    ["replace_paths", extra.replacePaths],
    ["importing", extra.importing],
    ["generated_config", omitEmptyString(extra.generatedConfig)],
  ]);
}

function compareChanges(a: ResourceInstanceChange, b: ResourceInstanceChange): number {
  if (!a.addr.equal(b.addr)) return a.addr.less(b.addr) ? -1 : 1;
  return compareStrings(a.deposedKey, b.deposedKey);
}

/** MarshalResourceChanges: sorted by address then deposed key; data source deletes left out. */
export function marshalResourceChanges(resources: readonly ResourceInstanceChange[], schemas: Schemas): string[] {
  const out: string[] = [];
  for (const rc of [...resources].sort(compareChanges)) {
    const r = rc.addr.resource.resource;
    if (r.mode === "data" && rc.change.action === "Delete") continue;
    if (r.mode === "ephemeral") continue;
    const schema = lookupSchema(rc, schemas);
    const { before, after } = rc.change;
    const parts: ChangeJSONParts = changeValuesJSON(before, after, EmptyObjectVal);
    if (before !== undefined) parts.beforeSensitive = sensitiveJSON(before, schema.block);
    if (after !== undefined) parts.afterSensitive = sensitiveJSON(after, schema.block);
    const key = rc.addr.resource.key;
    const importing = rc.change.importing ? goObject([["id", omitEmptyString(rc.change.importing.id)]]) : undefined;
    out.push(
      goObject([
        ["address", goString(rc.addr.toString())],
        ["previous_address", rc.addr.equal(rc.prevRunAddr) ? undefined : goString(rc.prevRunAddr.toString())],
        ["module_address", omitEmptyString(rc.addr.module.toString())],
        ["mode", goString(r.mode)],
        ["type", goString(r.type)],
        ["name", goString(r.name)],
        ["index", key.kind === "NoKey" ? undefined : keyJSON(key)],
        ["deposed", omitEmptyString(rc.deposedKey)],
        ["provider_name", omitEmptyString(rc.providerAddr.provider.toString())],
        [
          "change",
          changeObject(parts, actionStrings(rc.change.action), {
            replacePaths: rc.requiredReplace.length > 0 ? goArray(rc.requiredReplace.map(encodePath)) : undefined,
            importing,
            generatedConfig: rc.change.generatedConfig,
          }),
        ],
        ["action_reason", omitEmptyString(actionReasonJSON(rc.actionReason))],
      ]),
    );
  }
  return out;
}

function keyJSON(key: ResourceInstanceChange["addr"]["resource"]["key"]): string {
  return key.kind === "IntKey" ? String(key.value) : key.kind === "StringKey" ? goJSONString(key.value) : "null";
}

/** MarshalOutputChanges: root module outputs only, keyed by name. */
export function marshalOutputChanges(outputs: readonly OutputChange[]): string | undefined {
  const entries: Array<[string, string]> = [];
  for (const oc of outputs) {
    if (!oc.addr.module.isRoot()) continue;
    const parts: ChangeJSONParts = changeValuesJSON(oc.change.before, oc.change.after, False);
    const s = goBool(oc.sensitive);
    parts.beforeSensitive = s;
    parts.afterSensitive = s;
    entries.push([oc.addr.outputValue.name, changeObject(parts, actionStrings(oc.change.action), {})]);
  }
  return entries.length > 0 ? goMap(entries) : undefined;
}

function marshalPlannedOutputs(outputs: readonly OutputChange[]): string | undefined {
  const entries: Array<[string, string]> = [];
  for (const oc of outputs) {
    if (!oc.addr.module.isRoot() || oc.change.action === "Delete") continue;
    const [after] = unmarkDeepWithPaths(oc.change.after);
    const known = isWhollyKnown(after);
    entries.push([
      oc.addr.outputValue.name,
      goObject([
        ["sensitive", goBool(oc.sensitive)],
        ["type", known ? marshalType(after.type) : undefined],
        ["value", known ? valueJSON(after) : undefined],
      ]),
    ]);
  }
  return entries.length > 0 ? goMap(entries) : undefined;
}

function marshalPlannedResources(changes: readonly ResourceInstanceChange[], schemas: Schemas): string {
  const byModule = new Map<string, ResourceInstanceChange[]>();
  const children = new Map<string, Set<string>>();
  for (const rc of changes) {
    if (rc.change.action === "Delete" || rc.deposedKey !== "" || rc.addr.resource.resource.mode === "ephemeral") continue;
    const mod = rc.addr.module.toString();
    if (!byModule.has(mod)) byModule.set(mod, []);
    byModule.get(mod)?.push(rc);
    const chain = [...rc.addr.module.ancestors()];
    if (chain.length === 0 || !(chain[chain.length - 1] as typeof rc.addr.module).equal(rc.addr.module)) chain.push(rc.addr.module);
    for (let i = 1; i < chain.length; i++) {
      const parent = String(chain[i - 1]);
      if (!children.has(parent)) children.set(parent, new Set());
      children.get(parent)?.add(String(chain[i]));
    }
  }
  const resources = (mod: string): string[] => {
    const list = (byModule.get(mod) ?? []).map((rc) => {
      const r = rc.addr.resource.resource;
      const schema = lookupSchema(rc, schemas);
      const [after] = unmarkDeepWithPaths(rc.change.after);
      const values = isWhollyKnown(after) ? attributeValuesJSON(after) : attributeValuesJSON(omitUnknowns(after));
      const key = rc.addr.resource.key;
      const address = rc.addr.toString();
      return {
        address,
        json: goObject([
          ["address", goString(address)],
          ["mode", goString(r.mode)],
          ["type", goString(r.type)],
          ["name", goString(r.name)],
          ["index", key.kind === "NoKey" ? undefined : keyJSON(key)],
          ["provider_name", goString(rc.providerAddr.provider.toString())],
          ["schema_version", String(schema.version)],
          ["values", values],
          // The change's own marks only: an attribute the schema calls sensitive counts once the
          // plan marked it (OpenTofu's marshalPlanResources), unlike before_/after_sensitive.
          ["sensitive_values", valueJSON(sensitiveAsBool(rc.change.after))],
        ]),
      };
    });
    list.sort((a, b) => compareStrings(a.address, b.address));
    return list.map((x) => x.json);
  };
  const modules = (parent: string): string[] =>
    [...(children.get(parent) ?? [])].sort(compareStrings).map((m) =>
      goObject([
        ["resources", omitEmptyArray(resources(m))],
        ["address", omitEmptyString(m)],
        ["child_modules", omitEmptyArray(modules(m))],
      ]),
    );
  return goObject([
    ["resources", omitEmptyArray(resources(""))],
    ["child_modules", omitEmptyArray(modules(""))],
  ]);
}

export interface PlanJSONOptions {
  schemas: Schemas;
  /** The configuration the plan was made from; without it `configuration` is left out. */
  config?: Config;
  expressions?: ExpressionMarshaler;
  /** The running program's version (`terraform_version`, and the prior state's). */
  terraformVersion: string;
}

function timestampRFC3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, "Z");
}

function guard(f: () => string): MarshalResult {
  try {
    return { ok: true, json: f() };
  } catch (e) {
    if (e instanceof PlanMarshalError) return { ok: false, error: e.message };
    throw e;
  }
}

/** Which drifted resources the JSON and the renderer show: all in refresh-only mode, else only real changes. */
export function visibleDrift(p: Plan): ResourceInstanceChange[] {
  return p.uiMode === "refresh-only" ? p.driftedResources : p.driftedResources.filter((d) => d.change.action !== "NoOp");
}

function relevantAttributesJSON(p: Plan): string | undefined {
  // OpenTofu orders them by the resource address as a string (terraform 1.11's order is an
  // accident of a comparator that reads the unsorted list), keeping the plan's order within one.
  const items = p.relevantAttributes
    .map((ra) => ({ resource: ra.resource.toString(), attr: encodePath(ra.attr) }))
    .sort((a, b) => compareStrings(a.resource, b.resource));
  return omitEmptyArray(items.map((i) => goObject([["resource", goString(i.resource)], ["attribute", i.attr]])));
}

/** jsonplan.Marshal: the whole `show -json` document (compact, no trailing newline). */
export function marshalPlanJSON(p: Plan, opts: PlanJSONOptions): MarshalResult {
  return guard(() => {
    const { schemas } = opts;
    const vars: Array<[string, string]> = [];
    for (const [name, v] of p.variableValues) vars.push([name, goObject([["value", valueJSON(unmarkDeepWithPaths(v)[0])]])]);
    if (opts.config) {
      for (const [name, decl] of opts.config.module.variables) {
        if (p.variableValues.has(name) || decl.default === undefined) continue;
        vars.push([name, goObject([["value", valueJSON(unmarkDeepWithPaths(decl.default)[0])]])]);
      }
    }
    const planned = goObject([
      ["outputs", marshalPlannedOutputs(p.changes.outputs)],
      ["root_module", marshalPlannedResources(p.changes.resources, schemas)],
    ]);
    const drift = visibleDrift(p);
    let priorState: string | undefined;
    if (!p.priorState.empty()) {
      const sf: File = newFile(p.priorState, "", 0, opts.terraformVersion);
      const r = marshalStateJSON(sf, schemas);
      if (!r.ok) throw new PlanMarshalError(`error marshaling prior state: ${r.error}`);
      priorState = r.json;
    }
    const checks = p.checks && p.checks.configResults.length > 0 ? marshalCheckResults(p.checks) : undefined;
    return goObject([
      ["format_version", goString(PLAN_FORMAT_VERSION)],
      ["terraform_version", omitEmptyString(opts.terraformVersion)],
      ["variables", vars.length > 0 ? goMap(vars) : undefined],
      ["planned_values", planned],
      ["resource_drift", omitEmptyArray(drift.length > 0 ? marshalResourceChanges(drift, schemas) : [])],
      ["resource_changes", omitEmptyArray(marshalResourceChanges(p.changes.resources, schemas))],
      ["output_changes", marshalOutputChanges(p.changes.outputs)],
      ["prior_state", priorState],
      ["configuration", opts.config ? marshalConfigJSON(opts.config, schemas, opts.expressions) : undefined],
      ["relevant_attributes", relevantAttributesJSON(p)],
      ["checks", checks],
      ["timestamp", goString(timestampRFC3339(p.timestamp))],
      ["applyable", goBool(p.applyable)],
      ["complete", goBool(p.complete)],
      ["errored", goBool(p.errored)],
    ]);
  });
}

/** The subset of the JSON plan the human renderer reads (jsonplan.MarshalForRenderer), as text. */
export function marshalPlanForRenderer(p: Plan, schemas: Schemas): MarshalResult {
  return guard(() => {
    const drift = visibleDrift(p);
    return goObject([
      ["resource_drift", omitEmptyArray(drift.length > 0 ? marshalResourceChanges(drift, schemas) : [])],
      // The renderer skips quiet NoOps; leaving them out spares marshalling every unchanged
      // instance of a large configuration only to drop it again.
      ["resource_changes", omitEmptyArray(marshalResourceChanges(p.changes.resources.filter((r) => !isQuietNoOp(r)), schemas))],
      ["output_changes", marshalOutputChanges(p.changes.outputs)],
      ["relevant_attributes", relevantAttributesJSON(p)],
    ]);
  });
}

export { impliedType };
