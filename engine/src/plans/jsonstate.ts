// The state "values" representation of `show -json` (OpenTofu's internal/command/jsonstate),
// format version 1.0: used for `show -json` of a state and for `prior_state` inside plans.
import { compareInstanceKeys, instanceKeyValue, type ModuleInstance } from "../addrs/index.js";
import { decodeObject, type File, type Resource as StateResource, type State } from "../states/model.js";
import {
  EmptyObjectVal,
  EmptyTupleVal,
  False,
  True,
  SENSITIVE,
  formatPathError,
  marshalJSON,
  marshalType,
  markWithPaths,
  objectVal,
  tupleVal,
  unmarkDeep,
  unmarkDeepWithPaths,
  type Value,
} from "../values/index.js";
import { goBool, goMap, goObject, goString, omitEmptyArray, omitEmptyString } from "./gojson.js";
import { marshalCheckResults } from "./jsonchecks.js";
import { blockContainsSensitive, impliedType, schemaValueMarks, type Schemas } from "./schemas.js";

export const STATE_FORMAT_VERSION = "1.0";

export type MarshalResult = { ok: true; json: string } | { ok: false; error: string };

class MarshalError extends Error {}

function must(r: { ok: true; value: string } | { ok: false; error: { path: readonly unknown[]; message: string } }): string {
  if (!r.ok) throw new MarshalError(formatPathError(r.error as Parameters<typeof formatPathError>[0]));
  return r.value;
}

/** Marshals a value as ctyjson.Marshal(v, v.Type()) does (marks must be gone). */
export function valueJSON(v: Value): string {
  return must(marshalJSON(v, v.type));
}

/**
 * jsonstate.SensitiveAsBool: the value's shape with sensitive leaves as true. Objects and maps
 * omit their false members; sequences keep them; unknown collections say nothing.
 */
export function sensitiveAsBool(v: Value): Value {
  if (v.marks.has(SENSITIVE)) return True;
  switch (v.kind) {
    case "null":
    case "string":
    case "number":
    case "bool":
      return False;
    case "unknown": {
      const k = v.type.kind;
      if (k === "list" || k === "set" || k === "tuple") return EmptyTupleVal;
      if (k === "map" || k === "object") return EmptyObjectVal;
      return False;
    }
    case "list":
    case "set":
    case "tuple":
      if (v.elements.length === 0) return EmptyTupleVal;
      return tupleVal(v.elements.map(sensitiveAsBool));
    case "map":
    case "object": {
      const attrs = new Map<string, Value>();
      for (const [k, e] of v.attrs) {
        const s = sensitiveAsBool(e);
        if (!(s.kind === "bool" && !s.value)) attrs.set(k, s);
      }
      return objectVal(attrs);
    }
  }
}

/** The sensitive_values document for a decoded (marked) object value. */
export function sensitiveValuesJSON(v: Value, block: Parameters<typeof schemaValueMarks>[0] | undefined): string {
  const [plain, pvm] = unmarkDeepWithPaths(v);
  const marks = block && blockContainsSensitive(block) ? [...pvm, ...schemaValueMarks(block, plain)] : pvm;
  const s = sensitiveAsBool(markWithPaths(plain, marks));
  return valueJSON(s);
}

/** jsonstate's marshalAttributeValues: the top-level attributes of an object as a sorted map. */
export function attributeValuesJSON(v: Value | undefined): string | undefined {
  if (v === undefined) return undefined;
  const [plain] = unmarkDeep(v);
  if (plain.kind === "null" || (plain.kind !== "object" && plain.kind !== "map")) return undefined;
  return goMap([...plain.attrs].map(([k, e]) => [k, valueJSON(e)] as const));
}

export interface StateResourceJSON {
  address: string;
  json: string;
}

function modeString(mode: string): string {
  if (mode === "managed") return "managed";
  if (mode === "data") return "data";
  throw new MarshalError(`unsupported resource mode ${mode}`);
}

function marshalResources(resources: Iterable<StateResource>, schemas: Schemas): string[] {
  const sorted = [...resources].sort((a, b) => a.addr.compare(b.addr));
  const out: string[] = [];
  for (const rs of sorted) {
    const r = rs.addr.resource;
    if (r.mode === "ephemeral") continue;
    const providerName = rs.providerConfig ? rs.providerConfig.provider.toString() : "";
    const schema = rs.providerConfig ? schemas.resourceTypeConfig(providerName, r.mode, r.type) : undefined;
    const instances = [...rs.instances.values()].sort((a, b) => compareInstanceKeys(a.key, b.key));
    for (const is of instances) {
      const address = rs.addr.instance(is.key).toString();
      const index = is.key.kind === "NoKey" ? undefined : valueJSON(instanceKeyValue(is.key));
      const base = (schemaVersion: number | undefined, values: string | undefined, sens: string | undefined, deps: string[], tainted: boolean, deposed: string): string =>
        goObject([
          ["address", omitEmptyString(address)],
          ["mode", goString(modeString(r.mode))],
          ["type", omitEmptyString(r.type)],
          ["name", omitEmptyString(r.name)],
          ["index", index],
          ["provider_name", goString(providerName)],
          ["schema_version", String(schemaVersion ?? 0)],
          ["values", values],
          ["sensitive_values", sens],
          ["depends_on", omitEmptyArray(deps.map(goString))],
          ["tainted", tainted ? "true" : undefined],
          ["deposed_key", omitEmptyString(deposed)],
        ]);
      const decode = (src: NonNullable<typeof is.current>): { values: string | undefined; sens: string; deps: string[]; tainted: boolean } => {
        if (!schema) throw new MarshalError(`no schema found for ${r.toString()} (in provider ${providerName})`);
        const obj = decodeObject(src, impliedType(schema.block));
        if (!obj.ok) throw new MarshalError(obj.error);
        return {
          values: attributeValuesJSON(obj.value.value),
          sens: sensitiveValuesJSON(obj.value.value, schema.block),
          deps: obj.value.dependencies.map((d) => d.toString()),
          tainted: obj.value.status === "tainted",
        };
      };
      let currentVersion: number | undefined;
      if (is.current) {
        if (schema && schema.version !== is.current.schemaVersion) {
          throw new MarshalError(
            `schema version ${is.current.schemaVersion} for ${r.toString()} in state does not match version ${schema.version} from the provider`,
          );
        }
        currentVersion = is.current.schemaVersion;
        const d = decode(is.current);
        out.push(base(currentVersion, d.values, d.sens, d.deps, d.tainted, ""));
      }
      for (const dk of [...is.deposed.keys()].sort()) {
        const d = decode(is.deposed.get(dk) as NonNullable<typeof is.current>);
        // OpenTofu copies the base fields from the current object, so a deposed-only instance
        // reports schema version 0.
        out.push(base(currentVersion, d.values, d.sens, d.deps, d.tainted, dk));
      }
    }
  }
  return out;
}

/** The module tree of state: root resources, then child modules sorted by address. */
function marshalRootModule(s: State, schemas: Schemas): string {
  const children = new Map<string, Set<string>>();
  const byAddr = new Map<string, ModuleInstance>();
  for (const m of s.modules.values()) {
    if (m.addr.isRoot()) continue;
    const anc = [...m.addr.ancestors()];
    if (anc.length === 0 || !(anc[anc.length - 1] as ModuleInstance).equal(m.addr)) anc.push(m.addr);
    for (let i = 1; i < anc.length; i++) {
      const parent = (anc[i - 1] as ModuleInstance).toString();
      const child = anc[i] as ModuleInstance;
      if (!children.has(parent)) children.set(parent, new Set());
      children.get(parent)?.add(child.toString());
      byAddr.set(child.toString(), child);
    }
  }
  const modules = (parent: string): string[] => {
    const kids = [...(children.get(parent) ?? [])].sort();
    return kids.map((k) => {
      const mod = s.modules.get(k);
      const rs = mod ? marshalResources(mod.resources.values(), schemas) : [];
      return goObject([
        ["resources", omitEmptyArray(rs)],
        ["address", omitEmptyString(k)],
        ["child_modules", omitEmptyArray(modules(k))],
      ]);
    });
  };
  const rootRs = marshalResources(s.rootModule().resources.values(), schemas);
  return goObject([
    ["resources", omitEmptyArray(rootRs)],
    ["child_modules", omitEmptyArray(modules(""))],
  ]);
}

/** The root outputs: `{"name":{"sensitive":…,"value":…,"type":…}}`. */
function marshalOutputs(s: State): string | undefined {
  const outs = s.rootModule().outputValues;
  if (outs.size === 0) return undefined;
  const entries: Array<[string, string]> = [];
  for (const [name, o] of outs) {
    const [v] = unmarkDeep(o.value);
    if (v.kind === "unknown") continue;
    entries.push([name, goObject([["sensitive", goBool(o.sensitive)], ["value", valueJSON(v)], ["type", marshalType(v.type)]])]);
  }
  return goMap(entries);
}

/** The `values` object of a state (outputs and root_module). */
export function marshalStateValues(s: State, schemas: Schemas): string {
  return goObject([
    ["outputs", marshalOutputs(s)],
    ["root_module", marshalRootModule(s, schemas)],
  ]);
}

export interface StateJSONOptions {
  /** Overrides the file's terraform_version (the plan's prior_state uses the running version). */
  terraformVersion?: string;
}

function guard(f: () => string): MarshalResult {
  try {
    return { ok: true, json: f() };
  } catch (e) {
    if (e instanceof MarshalError) return { ok: false, error: e.message };
    throw e;
  }
}

/** jsonstate.Marshal: `show -json` of a state snapshot (compact JSON, no trailing newline). */
export function marshalStateJSON(file: File | undefined, schemas: Schemas, opts: StateJSONOptions = {}): MarshalResult {
  return guard(() => {
    if (!file || file.state.empty()) return goObject([["format_version", goString(STATE_FORMAT_VERSION)]]);
    const version = opts.terraformVersion ?? file.terraformVersion;
    const cr = file.state.checkResults;
    return goObject([
      ["format_version", goString(STATE_FORMAT_VERSION)],
      ["terraform_version", omitEmptyString(version)],
      ["values", marshalStateValues(file.state, schemas)],
      ["checks", cr && cr.configResults.length > 0 ? marshalCheckResults(cr) : undefined],
    ]);
  });
}

