// Test kit: rebuilds our plan model from a plan that real `terraform show -json` printed, using
// the builtin provider's schemas, so tests can compare our JSON and human output with terraform's.
import { AbsProviderConfig, RootModule, newBuiltInProvider, parseAbsOutputValueStr, parseAbsResourceInstanceStr } from "../addrs/index.js";
import { attribute, block, type Block } from "../providers/schema/index.js";
import {
  DynamicPseudoType,
  SENSITIVE,
  StringType,
  decodeJSONImplied,
  impliedTypeJSON,
  mark,
  nullVal,
  objectVal,
  unknownVal,
  listVal,
  tupleVal,
  mapVal,
  setVal,
  type Type,
  type Value,
} from "../values/index.js";
import { parseActionReasonJSON, parseActionStrings } from "./action.js";
import { newResourceInstanceChange, type OutputChange, type ResourceInstanceChange } from "./changes.js";
import { newPlan, type Plan, type UIMode } from "./plan.js";
import { newSchemas, type Schemas } from "./schemas.js";

export const terraformDataBlock: Block = block({
  id: attribute({ type: StringType, computed: true }),
  input: attribute({ type: DynamicPseudoType, optional: true }),
  output: attribute({ type: DynamicPseudoType, computed: true }),
  triggers_replace: attribute({ type: DynamicPseudoType, optional: true }),
});

export const remoteStateBlock: Block = block({
  backend: attribute({ type: StringType, required: true }),
  config: attribute({ type: DynamicPseudoType, optional: true }),
  defaults: attribute({ type: DynamicPseudoType, optional: true }),
  outputs: attribute({ type: DynamicPseudoType, computed: true }),
  workspace: attribute({ type: StringType, optional: true }),
});

export const BUILTIN = "terraform.io/builtin/terraform";

export const builtinSchemas: Schemas = newSchemas({
  [BUILTIN]: {
    resourceTypes: { terraform_data: { version: 0, block: terraformDataBlock } },
    dataSources: { terraform_remote_state: { version: 0, block: remoteStateBlock } },
  },
});

export function builtinBlocks(provider: string, mode: string, type: string): Block | undefined {
  if (provider !== BUILTIN) return undefined;
  if (mode === "managed" && type === "terraform_data") return terraformDataBlock;
  if (mode === "data" && type === "terraform_remote_state") return remoteStateBlock;
  return undefined;
}

type Raw = null | boolean | number | string | Raw[] | { [k: string]: Raw };

/** A value from terraform's JSON for a dynamic attribute: the JSON's implied type. */
function fromJSON(raw: Raw | undefined): Value {
  if (raw === undefined || raw === null) return nullVal(DynamicPseudoType);
  const text = JSON.stringify(raw);
  const t = impliedTypeJSON(text);
  const v = decodeJSONImplied(text);
  if (!t.ok || !v.ok) throw new Error(`cannot decode ${text}`);
  return v.value;
}

/** Overlays unknowns (after_unknown) and sensitive marks on a value reconstructed from JSON. */
function overlay(v: Value, unknown: Raw | undefined, sensitive: Raw | undefined, unknownType: () => Type): Value {
  if (sensitive === true) return mark(overlay(v, unknown, undefined, unknownType), SENSITIVE);
  if (unknown === true) return unknownVal(unknownType());
  const childU = (k: string | number): Raw | undefined =>
    unknown && typeof unknown === "object" ? (Array.isArray(unknown) ? unknown[k as number] : (unknown as { [k: string]: Raw })[k as string]) : undefined;
  const childS = (k: string | number): Raw | undefined =>
    sensitive && typeof sensitive === "object" ? (Array.isArray(sensitive) ? sensitive[k as number] : (sensitive as { [k: string]: Raw })[k as string]) : undefined;
  switch (v.kind) {
    case "tuple":
      return tupleVal(v.elements.map((e, i) => overlay(e, childU(i), childS(i), () => DynamicPseudoType)));
    case "list":
      return listVal(v.elements.map((e, i) => overlay(e, childU(i), childS(i), () => e.type)));
    case "set":
      return setVal(v.elements.map((e, i) => overlay(e, childU(i), childS(i), () => e.type)));
    case "object": {
      const attrs = new Map<string, Value>();
      for (const [k, e] of v.attrs) attrs.set(k, overlay(e, childU(k), childS(k), () => DynamicPseudoType));
      if (unknown && typeof unknown === "object" && !Array.isArray(unknown)) {
        for (const [k, u] of Object.entries(unknown)) if (u === true && !attrs.has(k)) attrs.set(k, unknownVal(DynamicPseudoType));
      }
      return objectVal(attrs);
    }
    case "map": {
      const attrs = new Map<string, Value>();
      for (const [k, e] of v.attrs) attrs.set(k, overlay(e, childU(k), childS(k), () => e.type));
      return mapVal(attrs);
    }
    default:
      return v;
  }
}

function resourceValue(block: Block, raw: Raw | undefined, unknown: Raw | undefined, sensitive: Raw | undefined, isTerraformData: boolean): Value {
  const obj = raw && typeof raw === "object" && !Array.isArray(raw) ? raw : undefined;
  const u = unknown && typeof unknown === "object" && !Array.isArray(unknown) ? unknown : {};
  const s = sensitive && typeof sensitive === "object" && !Array.isArray(sensitive) ? sensitive : {};
  if (!obj && unknown !== true && raw === null) {
    const attrs = new Map<string, Type>();
    for (const [n, a] of block.attributes) attrs.set(n, a.type ?? DynamicPseudoType);
    return nullVal({ kind: "object", attributes: attrs, optional: new Set() });
  }
  const attrs = new Map<string, Value>();
  let input: Value | undefined;
  for (const [name, a] of block.attributes) {
    const t = a.type ?? DynamicPseudoType;
    let v = obj && name in obj ? (t.kind === "string" && typeof obj[name] === "string" ? fromJSON(obj[name]) : fromJSON(obj[name])) : nullVal(t);
    if (v.kind === "null") v = nullVal(t);
    // terraform_data plans `output` as an unknown of the input's type.
    const typeOfUnknown = (): Type => (isTerraformData && name === "output" && input && input.kind !== "null" ? input.type : t);
    v = overlay(v, u[name], s[name], typeOfUnknown);
    if (name === "input") input = v;
    attrs.set(name, v);
  }
  return objectVal(attrs);
}

const PROVIDER = new AbsProviderConfig(RootModule, newBuiltInProvider("terraform"));

function mustAddr(s: string): NonNullable<ReturnType<typeof parseAbsResourceInstanceStr>["result"]> {
  const r = parseAbsResourceInstanceStr(s).result;
  if (!r) throw new Error(`bad address ${s}`);
  return r;
}

export function resourceChangeFromTF(rc: { [k: string]: Raw }): ResourceInstanceChange {
  const change = rc["change"] as { [k: string]: Raw };
  const action = parseActionStrings(change["actions"] as string[]);
  if (!action) throw new Error("bad actions");
  const mode = rc["mode"] as string;
  const type = rc["type"] as string;
  const blk = builtinBlocks(BUILTIN, mode, type);
  if (!blk) throw new Error(`no schema for ${type}`);
  const isTD = type === "terraform_data";
  const before = resourceValue(blk, change["before"] ?? null, undefined, change["before_sensitive"], isTD);
  const after = resourceValue(blk, "after" in change ? change["after"] : change["after_unknown"] === true ? undefined : null, change["after_unknown"], change["after_sensitive"], isTD);
  const addr = mustAddr(rc["address"] as string);
  const out = newResourceInstanceChange({
    addr,
    prevRunAddr: typeof rc["previous_address"] === "string" ? mustAddr(rc["previous_address"]) : addr,
    providerAddr: PROVIDER,
    change: { action, before, after, generatedConfig: "" },
    actionReason: parseActionReasonJSON((rc["action_reason"] as string | undefined) ?? "") ?? "None",
    deposedKey: (rc["deposed"] as string | undefined) ?? "",
    requiredReplace: ((change["replace_paths"] as Raw[][] | undefined) ?? []).map((p) => p.map((s) => ({ kind: "attr" as const, name: String(s) }))),
  });
  const imp = change["importing"] as { id?: string } | undefined;
  if (imp) out.change.importing = { id: imp.id ?? "" };
  return out;
}

export function outputChangeFromTF(name: string, oc: { [k: string]: Raw }): OutputChange {
  const action = parseActionStrings(oc["actions"] as string[]);
  if (!action) throw new Error("bad actions");
  const sensitive = oc["after_sensitive"] === true;
  const m = (v: Value): Value => (sensitive ? mark(v, SENSITIVE) : v);
  const before = m(fromJSON(oc["before"]));
  const after = oc["after_unknown"] === true ? unknownVal(DynamicPseudoType) : m(fromJSON(oc["after"]));
  const addr = parseAbsOutputValueStr(`output.${name}`).result;
  if (!addr) throw new Error("bad output");
  return { addr, sensitive, change: { action, before, after, generatedConfig: "" } };
}

/** The plan terraform described, in our model (prior state and configuration left out). */
export function planFromTF(doc: { [k: string]: Raw }, uiMode: UIMode = "normal"): Plan {
  const vars = new Map<string, Value>();
  for (const [k, v] of Object.entries((doc["variables"] as { [k: string]: { [k: string]: Raw } } | undefined) ?? {})) vars.set(k, fromJSON(v["value"]));
  const resources = ((doc["resource_changes"] as Array<{ [k: string]: Raw }> | undefined) ?? []).map(resourceChangeFromTF);
  const outputs = Object.entries((doc["output_changes"] as { [k: string]: { [k: string]: Raw } } | undefined) ?? {}).map(([k, v]) => outputChangeFromTF(k, v));
  return newPlan({
    uiMode,
    variableValues: vars,
    changes: { resources, outputs },
    driftedResources: ((doc["resource_drift"] as Array<{ [k: string]: Raw }> | undefined) ?? []).map(resourceChangeFromTF),
    relevantAttributes: ((doc["relevant_attributes"] as Array<{ resource: string; attribute: Raw[] }> | undefined) ?? []).map((ra) => ({
      resource: mustAddr(ra.resource),
      attr: ra.attribute.map((s) => ({ kind: "attr" as const, name: String(s) })),
    })),
    timestamp: new Date(String(doc["timestamp"])),
    applyable: doc["applyable"] === true,
    complete: doc["complete"] === true,
    errored: doc["errored"] === true,
  });
}
