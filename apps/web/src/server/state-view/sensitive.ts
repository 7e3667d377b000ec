// Sensitive attribute paths of a state v4 instance object, and masking by them.
//
// OpenTofu and Terraform write `sensitive_attributes` as a list of cty paths, each a list of steps
// (internal/states/statefile/version4.go, marshalPaths):
//   [[{"type":"get_attr","value":"password"}],
//    [{"type":"get_attr","value":"tags"},{"type":"index","value":{"value":"k","type":"string"}}]]
// Index keys there are cty values in the dynamic JSON encoding ({"value","type"}). Other writers and
// versions use other shapes: bare index values, bare steps (["tags", "k"]), or a tree of booleans
// like `show -json`'s `sensitive_values` ({"password": true}). All of these are read. Anything we
// cannot read is taken as "sensitive from here down": masking too much is a nuisance, masking too
// little leaks a secret.
import type { PathStep } from "./addresses";

export const SENSITIVE_TEXT = "(sensitive value)";

/** A prefix tree of sensitive paths. `all`: everything at and under this node is sensitive. */
export type SensitiveNode = { all: boolean; children: Map<string, SensitiveNode> | null };

export type SensitiveInfo = { paths: PathStep[][]; tree: SensitiveNode | null };

const NONE: SensitiveInfo = { paths: [], tree: null };

/** Reads `sensitive_attributes` in any of the shapes above. */
export function readSensitivePaths(raw: unknown): SensitiveInfo {
  if (raw === undefined || raw === null) return NONE;
  const paths: PathStep[][] = [];
  if (Array.isArray(raw)) {
    if (raw.length === 0) return NONE;
    for (const p of raw) paths.push(readPath(p));
  } else if (typeof raw === "object") {
    const o = raw as Record<string, unknown>;
    // A wrapped list: {"type": "...", "value": [paths]}.
    if (Object.keys(o).length === 2 && "type" in o && Array.isArray(o.value)) return readSensitivePaths(o.value);
    collectBooleanTree(o, [], paths);
  } else if (raw === true) {
    paths.push([]);
  } else if (raw !== false) {
    paths.push([]);
  }
  return paths.length ? { paths, tree: buildTree(paths) } : NONE;
}

// One path. A step we cannot read ends the path there, so its prefix counts as sensitive.
function readPath(p: unknown): PathStep[] {
  if (typeof p === "string") return [p]; // a bare attribute name
  if (!Array.isArray(p)) {
    const single = readStep(p);
    return single === undefined ? [] : [single];
  }
  const out: PathStep[] = [];
  for (const s of p) {
    const step = readStep(s);
    if (step === undefined) break;
    out.push(step);
  }
  return out;
}

function readStep(s: unknown): PathStep | undefined {
  if (typeof s === "string") return s;
  if (typeof s === "number") return Number.isInteger(s) ? s : undefined;
  if (!s || typeof s !== "object") return undefined;
  const { type, value } = s as { type?: unknown; value?: unknown };
  if (type === "get_attr") return typeof value === "string" ? value : undefined;
  if (type === "index") {
    const key = value && typeof value === "object" && !Array.isArray(value) && "value" in value ? (value as { value: unknown }).value : value;
    if (typeof key === "string") return key;
    if (typeof key === "number" && Number.isInteger(key)) return key;
    // A set element or other non-scalar key cannot be located positionally.
    return undefined;
  }
  return undefined;
}

function collectBooleanTree(v: unknown, prefix: PathStep[], out: PathStep[][]): void {
  if (v === true) out.push(prefix);
  else if (Array.isArray(v)) v.forEach((x, i) => collectBooleanTree(x, [...prefix, i], out));
  else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) collectBooleanTree(x, [...prefix, k], out);
  else if (v !== false && v !== null && v !== undefined) out.push(prefix);
}

export function buildTree(paths: readonly (readonly PathStep[])[]): SensitiveNode | null {
  if (!paths.length) return null;
  const root: SensitiveNode = { all: false, children: null };
  for (const path of paths) {
    let node = root;
    for (const step of path) {
      if (node.all) break;
      node.children ??= new Map();
      const k = String(step);
      let next = node.children.get(k);
      if (!next) node.children.set(k, (next = { all: false, children: null }));
      node = next;
    }
    node.all = true;
    node.children = null;
  }
  return root;
}

function union(a: SensitiveNode | null | undefined, b: SensitiveNode | null | undefined): SensitiveNode | null {
  if (!a) return b ?? null;
  if (!b) return a;
  if (a.all || b.all) return ALL;
  const children = new Map(a.children ?? []);
  for (const [k, v] of b.children ?? []) children.set(k, union(children.get(k), v)!);
  return { all: false, children };
}

const ALL: SensitiveNode = { all: true, children: null };

/**
 * Attributes of dynamic type (e.g. terraform_data's `input`) are stored as {"value": …, "type": …}
 * but their sensitive paths skip that wrapper (`input.password` means `input.value.password`).
 */
export function isDynamicWrapper(v: unknown): v is { value: unknown; type: unknown } {
  if (!v || typeof v !== "object" || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  if (!("value" in o) || !("type" in o)) return false;
  let n = 0;
  for (const _ in o) if (++n > 2) return false;
  return typeof o.type === "string" || Array.isArray(o.type);
}

/**
 * The sensitivity node for `container[key]`. For a dynamic wrapper both readings are taken (the
 * literal `value` attribute and the wrapped value), so neither can leak.
 */
export function childNode(node: SensitiveNode | null, container: unknown, key: string): SensitiveNode | null {
  if (!node) return null;
  if (node.all) return node;
  const literal = node.children?.get(key) ?? null;
  if (key === "value" && isDynamicWrapper(container)) return union(literal, node);
  return literal;
}

/** A copy of `value` with everything at or under a sensitive path replaced by "(sensitive value)". */
export function maskValue(value: unknown, node: SensitiveNode | null): unknown {
  if (!node) return value;
  if (node.all) return SENSITIVE_TEXT;
  if (Array.isArray(value)) return value.map((v, i) => maskValue(v, childNode(node, value, String(i))));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = maskValue(v, childNode(node, value, k));
    return out;
  }
  return value;
}

/** Whether anything at or under `node` is sensitive (used to decide whether a subtree can be sent as is). */
export function hasSensitive(node: SensitiveNode | null): boolean {
  return !!node && (node.all || !!node.children?.size);
}
