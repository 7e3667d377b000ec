// Differences between two state versions: instance objects added, removed and changed (keyed by
// instance address and deposed key), attribute-level changes as flattened paths, and outputs.
// Sensitive values never appear: a change at or under a sensitive path (in either version) has
// before/after null and sensitive true.
import { formatPath, type InstanceKey, type PathStep } from "./addresses";
import { childNode, type SensitiveNode } from "./sensitive";
import { compareObjects, type IndexedOutput, type StateIndex, type StateObject } from "./state-index";

export type ChangeAction = "added" | "removed" | "changed";

export type AttributeChange = {
  path: string;
  action: ChangeAction;
  before: unknown;
  after: unknown;
  sensitive: boolean;
  /** True for instance metadata (provider, status, schema version, dependencies), not attributes. */
  meta?: true;
};

export type OutputChange = { name: string; action: ChangeAction; sensitive: boolean; before: unknown; after: unknown };

export type DiffEntry = {
  address: string;
  module: string;
  resourceAddress: string;
  key: InstanceKey;
  deposed: string | null;
  action: ChangeAction;
  provider: string;
  search: string;
  before: StateObject | null;
  after: StateObject | null;
  /** Computed while diffing for changed objects, on first use for added/removed ones. */
  changes: AttributeChange[] | null;
};

export type DiffSummary = { added: number; removed: number; changed: number; unchanged: number };

export type StateDiff = {
  summary: DiffSummary;
  outputs: OutputChange[];
  entries: DiffEntry[];
  /** What keeping this diff holds in memory: its entries point into both versions' text. */
  approxBytes: number;
};

export type DiffRow = {
  address: string;
  module: string;
  deposed: string | null;
  action: ChangeAction;
  provider: string;
  changes: AttributeChange[];
  /** How many further changes were left out of `changes` (an instance can change thousands of list elements). */
  changesOmitted: number;
};

/** At most this many attribute changes per instance object are sent. */
export const MAX_CHANGES_PER_OBJECT = 1000;

function objectKey(o: StateObject): string {
  return o.deposed === null ? o.address : `${o.address}\u0000${o.deposed}`;
}

function* objectsOf(index: StateIndex): Generator<StateObject> {
  for (const inst of index.instances) {
    if (inst.current) yield inst.current;
    yield* inst.deposed;
  }
}

export function diffStates(from: StateIndex, to: StateIndex): StateDiff {
  const before = new Map<string, StateObject>();
  for (const o of objectsOf(from)) before.set(objectKey(o), o);

  const entries: DiffEntry[] = [];
  const summary: DiffSummary = { added: 0, removed: 0, changed: 0, unchanged: 0 };
  for (const a of objectsOf(to)) {
    const k = objectKey(a);
    const b = before.get(k);
    if (!b) {
      entries.push(entry(a, null, a, "added", null));
      summary.added++;
      continue;
    }
    before.delete(k);
    const changes = objectChanges(b, a);
    if (changes.length === 0) {
      summary.unchanged++;
      continue;
    }
    entries.push(entry(a, b, a, "changed", changes));
    summary.changed++;
  }
  for (const b of before.values()) {
    entries.push(entry(b, b, null, "removed", null));
    summary.removed++;
  }
  entries.sort(
    (x, y) =>
      compareObjects(x.module, x.resourceAddress, x.key, y.module, y.resourceAddress, y.key) ||
      (x.deposed === y.deposed ? 0 : x.deposed === null ? -1 : y.deposed === null ? 1 : x.deposed < y.deposed ? -1 : 1),
  );
  return { summary, outputs: diffOutputs(from.outputs, to.outputs), entries, approxBytes: from.approxBytes + to.approxBytes + entries.length * 200 };
}

function entry(o: StateObject, before: StateObject | null, after: StateObject | null, action: ChangeAction, changes: AttributeChange[] | null): DiffEntry {
  return {
    address: o.address,
    module: o.module,
    resourceAddress: o.resourceAddress,
    key: o.key,
    deposed: o.deposed,
    action,
    provider: o.provider,
    search: `${o.address}\n${o.provider}`.toLowerCase(),
    before,
    after,
    changes,
  };
}

/** One page of changed objects, optionally filtered by a case-insensitive substring of address or provider. */
export function diffPage(diff: StateDiff, query: { offset: number; limit: number; q?: string }): { total: number; data: DiffRow[] } {
  const q = query.q?.trim().toLowerCase() ?? "";
  const window: DiffEntry[] = [];
  let total = 0;
  if (!q) {
    total = diff.entries.length;
    window.push(...diff.entries.slice(query.offset, query.offset + query.limit));
  } else {
    for (const e of diff.entries) {
      if (!e.search.includes(q)) continue;
      if (total >= query.offset && window.length < query.limit) window.push(e);
      total++;
    }
  }
  return {
    total,
    data: window.map((e) => {
      e.changes ??= objectChanges(e.before, e.after);
      return {
        address: e.address,
        module: e.module,
        deposed: e.deposed,
        action: e.action,
        provider: e.provider,
        changes: e.changes.length > MAX_CHANGES_PER_OBJECT ? e.changes.slice(0, MAX_CHANGES_PER_OBJECT) : e.changes,
        changesOmitted: Math.max(0, e.changes.length - MAX_CHANGES_PER_OBJECT),
      };
    }),
  };
}

/** Attribute and metadata changes between two objects (either may be absent: added / removed). */
export function objectChanges(before: StateObject | null, after: StateObject | null): AttributeChange[] {
  const out: AttributeChange[] = [];
  if (before && after) {
    metaChange(out, "provider", before.provider, after.provider);
    metaChange(out, "status", before.status, after.status);
    metaChange(out, "schema_version", before.schemaVersion, after.schemaVersion);
    metaChange(out, "create_before_destroy", before.createBeforeDestroy, after.createBeforeDestroy);
    const db = [...before.dependencies].sort();
    const da = [...after.dependencies].sort();
    if (db.length !== da.length || db.some((d, i) => d !== da[i])) out.push({ path: "(dependencies)", action: "changed", before: db, after: da, sensitive: false, meta: true });
    // Equal text is equal values; only differing text needs parsing and walking.
    if (before.attributesJson === after.attributesJson) return out;
  }
  const b = before ? JSON.parse(before.attributesJson) : undefined;
  const a = after ? JSON.parse(after.attributesJson) : undefined;
  walk(out, [], b, a, before?.sensitive ?? null, after?.sensitive ?? null);
  return out;
}

function metaChange(out: AttributeChange[], field: string, before: unknown, after: unknown): void {
  if (before !== after) out.push({ path: `(${field})`, action: "changed", before, after, sensitive: false, meta: true });
}

const absent = (v: unknown) => v === undefined || v === null;
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
const isContainer = (v: unknown) => Array.isArray(v) || isObject(v);

// Null and absent are the same to a reader of state (providers write null for unset attributes),
// so null → value is "added" and value → null is "removed".
function walk(out: AttributeChange[], path: PathStep[], b: unknown, a: unknown, nb: SensitiveNode | null, na: SensitiveNode | null): void {
  if (absent(b) && absent(a)) return;
  const sensitive = !!nb?.all || !!na?.all;
  if (absent(b)) return emitAll(out, path, a, na, "added", sensitive);
  if (absent(a)) return emitAll(out, path, b, nb, "removed", sensitive);
  if (sensitive) {
    if (!deepEqual(b, a)) out.push({ path: formatPath(path), action: "changed", before: null, after: null, sensitive: true });
    return;
  }
  if (Array.isArray(b) && Array.isArray(a)) {
    const n = Math.max(b.length, a.length);
    for (let i = 0; i < n; i++) {
      path.push(i);
      walk(out, path, b[i], a[i], childNode(nb, b, String(i)), childNode(na, a, String(i)));
      path.pop();
    }
    return;
  }
  if (isObject(b) && isObject(a)) {
    for (const k of Object.keys(b)) {
      path.push(k);
      walk(out, path, b[k], a[k], childNode(nb, b, k), childNode(na, a, k));
      path.pop();
    }
    for (const k of Object.keys(a)) {
      if (k in b) continue;
      path.push(k);
      walk(out, path, undefined, a[k], childNode(nb, b, k), childNode(na, a, k));
      path.pop();
    }
    return;
  }
  if (deepEqual(b, a)) return;
  // Different kinds (a string became an object…) or different scalars: one change at this path.
  // A container on either side may hold sensitive parts, so those sides are flattened instead.
  if ((isContainer(b) && nb) || (isContainer(a) && na)) {
    emitAll(out, path, b, nb, "removed", false);
    emitAll(out, path, a, na, "added", false);
    return;
  }
  out.push({ path: formatPath(path), action: "changed", before: b, after: a, sensitive: false });
}

/** Every leaf of a value that appeared or disappeared, or one entry for a scalar or empty container. */
function emitAll(out: AttributeChange[], path: PathStep[], v: unknown, node: SensitiveNode | null, action: "added" | "removed", sensitive: boolean): void {
  if (absent(v)) return;
  if (sensitive || node?.all) {
    out.push({ path: formatPath(path), action, before: null, after: null, sensitive: true });
    return;
  }
  if (Array.isArray(v) && v.length) {
    for (let i = 0; i < v.length; i++) {
      path.push(i);
      emitAll(out, path, v[i], childNode(node, v, String(i)), action, false);
      path.pop();
    }
    return;
  }
  if (isObject(v)) {
    const keys = Object.keys(v);
    if (keys.length) {
      for (const k of keys) {
        path.push(k);
        emitAll(out, path, v[k], childNode(node, v, k), action, false);
        path.pop();
      }
      return;
    }
  }
  out.push({ path: formatPath(path), action, before: action === "removed" ? v : null, after: action === "added" ? v : null, sensitive: false });
}

export function deepEqual(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
  if (Array.isArray(x)) {
    if (!Array.isArray(y) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!deepEqual(x[i], y[i])) return false;
    return true;
  }
  if (Array.isArray(y)) return false;
  const kx = Object.keys(x);
  if (kx.length !== Object.keys(y).length) return false;
  for (const k of kx) {
    if (!Object.prototype.hasOwnProperty.call(y, k)) return false;
    if (!deepEqual((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k])) return false;
  }
  return true;
}

export function diffOutputs(from: IndexedOutput[], to: IndexedOutput[]): OutputChange[] {
  const before = new Map(from.map((o) => [o.name, o]));
  const after = new Map(to.map((o) => [o.name, o]));
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  const out: OutputChange[] = [];
  for (const name of names) {
    const b = before.get(name);
    const a = after.get(name);
    const sensitive = !!b?.sensitive || !!a?.sensitive;
    let action: ChangeAction;
    if (!b) action = "added";
    else if (!a) action = "removed";
    else if (b.valueJson !== a.valueJson || b.sensitive !== a.sensitive || JSON.stringify(b.type) !== JSON.stringify(a.type)) action = "changed";
    else continue;
    out.push({ name, action, sensitive, before: sensitive || !b ? null : b.value, after: sensitive || !a ? null : a.value });
  }
  return out;
}
