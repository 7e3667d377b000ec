// What the state-history endpoints send for one version, shaped from a StateIndex. Nothing here
// may return a sensitive value: outputs marked sensitive and attributes under sensitive paths are
// masked before they leave this module.
import type { PathStep } from "./addresses";
import { maskValue } from "./sensitive";
import type { IndexedInstance, InstanceRow, ModuleSummary, StateIndex, StateObject } from "./state-index";

export type OutputView = { name: string; type: unknown; sensitive: boolean; value: unknown };

export type VersionOverview = { outputs: OutputView[]; modules: ModuleSummary[] };

export function versionOverview(index: StateIndex): VersionOverview {
  return {
    outputs: index.outputs.map((o) => ({ name: o.name, type: o.type, sensitive: o.sensitive, value: o.sensitive ? null : o.value })),
    modules: index.modules,
  };
}

export type InstancePageQuery = { offset: number; limit: number; q?: string; module?: string };

/** One page of instance rows, optionally filtered by module and by a case-insensitive substring. */
export function instancePage(index: StateIndex, query: InstancePageQuery): { total: number; data: InstanceRow[] } {
  const q = query.q?.trim().toLowerCase() ?? "";
  const module = query.module;
  if (!q && module === undefined) {
    return { total: index.instances.length, data: index.instances.slice(query.offset, query.offset + query.limit).map((i) => i.row) };
  }
  const matches = (i: IndexedInstance) => (module === undefined || i.row.module === module) && (!q || i.search.includes(q));
  // Count every match, but keep only the requested window: no array of 20,000 rows per request.
  const data: InstanceRow[] = [];
  let total = 0;
  for (const i of index.instances) {
    if (!matches(i)) continue;
    if (total >= query.offset && data.length < query.limit) data.push(i.row);
    total++;
  }
  return { total, data };
}

export type ObjectView = { attributes: unknown; sensitivePaths: PathStep[][] };

export type InstanceDetail = {
  address: string;
  module: string;
  mode: "managed" | "data";
  type: string;
  name: string;
  key: string | number | null;
  provider: string;
  providerLevel: "instance" | "resource";
  status: "tainted" | null;
  schemaVersion: number | null;
  attributes: unknown;
  sensitivePaths: PathStep[][];
  dependencies: string[];
  createBeforeDestroy: boolean;
  deposed: { key: string; status: "tainted" | null; provider: string; schemaVersion: number; attributes: unknown; sensitivePaths: PathStep[][] }[];
};

/** One instance with its attributes masked; null when the version has no such instance. */
export function instanceDetail(index: StateIndex, address: string): InstanceDetail | null {
  const inst = index.byAddress.get(address);
  if (!inst) return null;
  const cur = inst.current;
  return {
    ...inst.row,
    schemaVersion: cur ? cur.schemaVersion : null,
    attributes: cur ? maskedAttributes(cur) : null,
    sensitivePaths: cur ? cur.sensitivePaths : [],
    dependencies: cur ? cur.dependencies : [],
    createBeforeDestroy: cur ? cur.createBeforeDestroy : false,
    deposed: inst.deposed.map((d) => ({
      key: d.deposed!,
      status: d.status,
      provider: d.provider,
      schemaVersion: d.schemaVersion,
      attributes: maskedAttributes(d),
      sensitivePaths: d.sensitivePaths,
    })),
  };
}

export function maskedAttributes(o: StateObject): unknown {
  return maskValue(JSON.parse(o.attributesJson), o.sensitive);
}
