// Reads a state v4 file once into an index that every view (instances page, one instance, diff)
// reads from. Attribute values stay JSON text per object (see scan.ts): a 50 MB state parsed
// whole is ~250 MB of objects and most of a second of garbage collection, while its text is
// 50 MB, and equal text means equal values (the common case in a diff) without walking anything.
import type { InstanceObjectStateV4, OutputStateV4, StateV4 } from "../state/types";
import { compareKeys, instanceAddress, resourceAddress, type InstanceKey, type PathStep } from "./addresses";
import { scanState, ScanError, type ScannedInstance, type ScannedResource, type ScannedState } from "./scan";
import { readSensitivePaths, type SensitiveNode } from "./sensitive";

/** One instance object: the current object of an instance, or one of its deposed objects. */
export type StateObject = {
  address: string;
  module: string;
  mode: "managed" | "data";
  type: string;
  name: string;
  key: InstanceKey;
  resourceAddress: string;
  deposed: string | null;
  provider: string;
  providerLevel: "instance" | "resource";
  status: "tainted" | null;
  schemaVersion: number;
  /** JSON text of `attributes` (or of `attributes_flat` for states from Terraform 0.11). */
  attributesJson: string;
  flat: boolean;
  sensitivePaths: PathStep[][];
  sensitive: SensitiveNode | null;
  dependencies: string[];
  createBeforeDestroy: boolean;
};

/** The contract's InstanceRow. */
export type InstanceRow = {
  address: string;
  module: string;
  mode: "managed" | "data";
  type: string;
  name: string;
  key: InstanceKey;
  provider: string;
  providerLevel: "instance" | "resource";
  status: "tainted" | null;
  deposed: string[];
};

export type IndexedInstance = {
  row: InstanceRow;
  resourceAddress: string;
  /** Lower-cased address and provider, for `q` filtering without allocating per request. */
  search: string;
  current: StateObject | null;
  deposed: StateObject[];
};

export type ModuleSummary = { module: string; resourceCount: number; instanceCount: number };

export type IndexedOutput = { name: string; type: unknown; sensitive: boolean; value: unknown; valueJson: string };

export type StateIndex = {
  serial: number;
  lineage: string;
  terraformVersion: string;
  /** Sorted by module, resource address, then instance key. */
  instances: IndexedInstance[];
  byAddress: Map<string, IndexedInstance>;
  modules: ModuleSummary[];
  outputs: IndexedOutput[];
  /** Rough heap cost, for the cache's budget. */
  approxBytes: number;
};

export class StateFormatError extends Error {}

/** Parses and indexes a state file. Throws StateFormatError when it is not a state v4 file. */
export function indexState(text: string): StateIndex {
  const t = text.trimStart();
  if (!t.startsWith("{")) {
    // Say what it is, as JSON.parse would (not JSON at all, or JSON but not an object).
    try {
      JSON.parse(text);
    } catch (e) {
      throw new StateFormatError(`The stored state is not valid JSON: ${(e as Error).message}`);
    }
    throw new StateFormatError("The stored state is not a JSON object");
  }
  let scanned: ScannedState;
  try {
    scanned = scanState(text);
  } catch (e) {
    if (e instanceof ScanError) throw new StateFormatError(`The stored state is not valid JSON: ${e.message}`);
    throw e;
  }
  const index = buildIndex(scanned);
  // Attribute slices keep the whole text alive, whatever parts of it they cover.
  index.approxBytes = Math.max(index.approxBytes, text.length + index.instances.length * 700);
  return index;
}

/** Indexes an already parsed state (attribute values are serialized back to text). */
export function indexParsedState(parsed: unknown): StateIndex {
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new StateFormatError("The stored state is not a JSON object");
  const s = parsed as Partial<StateV4>;
  return buildIndex({
    ...s,
    resources: Array.isArray(s.resources)
      ? s.resources.map((rs) => ({
          ...rs,
          instances: (Array.isArray(rs?.instances) ? rs.instances : []).map((is: InstanceObjectStateV4) => {
            const { attributes, attributes_flat, ...rest } = is ?? {};
            return {
              ...rest,
              ...(attributes !== undefined && attributes !== null ? { attributesText: JSON.stringify(attributes) } : {}),
              ...(attributes_flat ? { attributesFlatText: JSON.stringify(attributes_flat) } : {}),
            };
          }),
        }))
      : undefined,
  });
}

function buildIndex(s: ScannedState): StateIndex {
  if (s.version !== 4) throw new StateFormatError(`The stored state has format version ${JSON.stringify(s.version ?? null)}; Terrace reads format 4`);

  const byAddress = new Map<string, IndexedInstance>();
  const modules = new Map<string, ModuleSummary>();
  let approxBytes = 0;

  for (const rs of Array.isArray(s.resources) ? s.resources : []) {
    if (!rs || typeof rs !== "object") continue;
    const module = typeof rs.module === "string" ? rs.module : "";
    const mode = rs.mode === "data" ? "data" : "managed";
    const type = String(rs.type ?? "");
    const name = String(rs.name ?? "");
    const resAddr = resourceAddress(module, mode, type, name);
    let summary = modules.get(module);
    if (!summary) modules.set(module, (summary = { module, resourceCount: 0, instanceCount: 0 }));
    summary.resourceCount++;

    for (const is of Array.isArray(rs.instances) ? rs.instances : []) {
      if (!is || typeof is !== "object") continue;
      const key = readKey(is.index_key);
      const address = instanceAddress(module, mode, type, name, key);
      const obj = readObject(rs, is, address, module, mode, type, name, key, resAddr);
      approxBytes += obj.attributesJson.length + 400;
      let inst = byAddress.get(address);
      if (!inst) {
        inst = { row: rowOf(obj), resourceAddress: resAddr, search: "", current: null, deposed: [] };
        byAddress.set(address, inst);
      }
      if (obj.deposed !== null) {
        inst.deposed.push(obj);
        inst.row.deposed.push(obj.deposed);
      } else {
        // A duplicate current object is invalid state; the last one wins, as a reader can only show one.
        if (!inst.current) summary.instanceCount++;
        inst.current = obj;
        const deposed = inst.row.deposed;
        inst.row = rowOf(obj);
        inst.row.deposed = deposed;
      }
    }
  }

  const instances = [...byAddress.values()];
  for (const inst of instances) {
    inst.deposed.sort((a, b) => (a.deposed! < b.deposed! ? -1 : a.deposed! > b.deposed! ? 1 : 0));
    inst.row.deposed.sort();
    inst.search = `${inst.row.address}\n${inst.row.provider}`.toLowerCase();
  }
  instances.sort((a, b) => compareObjects(a.row.module, a.resourceAddress, a.row.key, b.row.module, b.resourceAddress, b.row.key));

  const outputs: IndexedOutput[] = [];
  const rawOutputs = s.outputs && typeof s.outputs === "object" ? s.outputs : {};
  for (const name of Object.keys(rawOutputs).sort()) {
    const o = rawOutputs[name] as OutputStateV4 | undefined;
    if (!o || typeof o !== "object") continue;
    outputs.push({ name, type: o.type ?? null, sensitive: o.sensitive === true, value: o.value ?? null, valueJson: JSON.stringify(o.value ?? null) });
  }

  return {
    serial: typeof s.serial === "number" ? s.serial : 0,
    lineage: typeof s.lineage === "string" ? s.lineage : "",
    terraformVersion: typeof s.terraform_version === "string" ? s.terraform_version : "",
    instances,
    byAddress,
    modules: [...modules.values()].sort((a, b) => (a.module < b.module ? -1 : a.module > b.module ? 1 : 0)),
    outputs,
    approxBytes: approxBytes + instances.length * 300,
  };
}

function readKey(k: unknown): InstanceKey {
  if (typeof k === "string") return k;
  if (typeof k === "number" && Number.isFinite(k)) return Math.trunc(k);
  return null;
}

// Every StateObject is built by this one literal, so all share one hidden class (fast property
// access in the diff's hot loop; an object spread here cost a third of the index build).
function readObject(
  rs: ScannedResource,
  is: ScannedInstance,
  address: string,
  module: string,
  mode: "managed" | "data",
  type: string,
  name: string,
  key: InstanceKey,
  resAddr: string,
): StateObject {
  // OpenTofu writes an instance's own provider instance as `provider`; some development builds
  // wrote `instance_provider`. The instance-level address wins over the resource-level one, as
  // OpenTofu's reader decides.
  const own = is.instance_provider;
  const instanceProvider = typeof is.provider === "string" && is.provider ? is.provider : typeof own === "string" && own ? own : "";
  const flat = is.attributesText === undefined && is.attributesFlatText !== undefined;
  const sens = readSensitivePaths(is.sensitive_attributes);
  return {
    address,
    module,
    mode,
    type,
    name,
    key,
    resourceAddress: resAddr,
    deposed: typeof is.deposed === "string" && is.deposed ? is.deposed : null,
    provider: instanceProvider || (typeof rs.provider === "string" ? rs.provider : ""),
    providerLevel: instanceProvider ? "instance" : "resource",
    status: is.status === "tainted" ? "tainted" : null,
    schemaVersion: typeof is.schema_version === "number" ? is.schema_version : 0,
    attributesJson: is.attributesText ?? is.attributesFlatText ?? "{}",
    flat,
    sensitivePaths: sens.paths,
    sensitive: sens.tree,
    dependencies: Array.isArray(is.dependencies) ? is.dependencies.filter((d): d is string => typeof d === "string") : [],
    createBeforeDestroy: is.create_before_destroy === true,
  };
}

function rowOf(o: StateObject): InstanceRow {
  return {
    address: o.address,
    module: o.module,
    mode: o.mode,
    type: o.type,
    name: o.name,
    key: o.key,
    provider: o.provider,
    providerLevel: o.providerLevel,
    status: o.status,
    deposed: [],
  };
}

/**
 * Module, then resource address, then instance key. Within one module the full resource addresses
 * share the module prefix, so comparing them compares the resource part.
 */
export function compareObjects(moduleA: string, resA: string, keyA: InstanceKey, moduleB: string, resB: string, keyB: InstanceKey): number {
  if (moduleA !== moduleB) return moduleA < moduleB ? -1 : 1;
  if (resA !== resB) return resA < resB ? -1 : 1;
  return compareKeys(keyA, keyB);
}
