// What the JSON formats and the renderer need to know about provider schemas: the block of each
// resource type and data source, and its schema version (OpenTofu's tofu.Schemas lookup).
import type { Provider, ResourceMode } from "../addrs/index.js";
import { impliedType, type Attribute, type Block, type NestedObject, type Schema } from "../providers/schema/index.js";
import { SENSITIVE, numberIntVal, stringVal, type Path, type PathValueMarks, type Type, type Value } from "../values/index.js";

export interface ResourceTypeSchema {
  block: Block;
  version: number;
}

/** Looks up resource type schemas by provider source address (`registry.opentofu.org/hashicorp/aws`). */
export interface Schemas {
  resourceTypeConfig(provider: string, mode: ResourceMode, type: string): ResourceTypeSchema | undefined;
  /** The provider's own configuration block, when its schema is loaded. */
  providerConfig?(provider: string): Block | undefined;
}

export interface ProviderSchemaSet {
  provider?: Schema;
  resourceTypes?: ReadonlyMap<string, Schema> | Record<string, Schema>;
  dataSources?: ReadonlyMap<string, Schema> | Record<string, Schema>;
}

function lookup(m: ReadonlyMap<string, Schema> | Record<string, Schema> | undefined, k: string): Schema | undefined {
  if (!m) return undefined;
  if (m instanceof Map) return m.get(k);
  return Object.prototype.hasOwnProperty.call(m, k) ? (m as Record<string, Schema>)[k] : undefined;
}

/** Schemas from plain per-provider tables, keyed by provider source string. */
export function newSchemas(providers: ReadonlyMap<string, ProviderSchemaSet> | Record<string, ProviderSchemaSet>): Schemas {
  const get = (p: string): ProviderSchemaSet | undefined =>
    providers instanceof Map ? providers.get(p) : (providers as Record<string, ProviderSchemaSet>)[p];
  return {
    resourceTypeConfig(provider, mode, type) {
      const set = get(provider);
      const s = mode === "managed" ? lookup(set?.resourceTypes, type) : mode === "data" ? lookup(set?.dataSources, type) : undefined;
      return s ? { block: s.block, version: s.version } : undefined;
    },
    providerConfig: (provider) => get(provider)?.provider?.block,
  };
}

/** Each resource type's implied type, as a saved plan's values are encoded with (computed once per type). */
export function resourceTypeLookup(schemas: Schemas): (provider: Provider, mode: ResourceMode, type: string) => Type | undefined {
  const memo = new Map<string, Type | undefined>();
  return (provider, mode, type) => {
    const key = `${provider.toString()}|${mode}|${type}`;
    if (!memo.has(key)) {
      const s = schemas.resourceTypeConfig(provider.toString(), mode, type);
      memo.set(key, s ? impliedType(s.block) : undefined);
    }
    return memo.get(key);
  };
}

export function providerString(p: Provider): string {
  return p.toString();
}

export { impliedType };

/** configschema's Block.ContainsSensitive. */
export function blockContainsSensitive(b: Block): boolean {
  for (const a of b.attributes.values()) if (attributeContainsSensitive(a)) return true;
  for (const nb of b.blockTypes.values()) if (blockContainsSensitive(nb.block)) return true;
  return false;
}

function attributeContainsSensitive(a: Attribute): boolean {
  if (a.sensitive) return true;
  if (a.nestedType) for (const n of a.nestedType.attributes.values()) if (attributeContainsSensitive(n)) return true;
  return false;
}

const SENSITIVE_MARKS: ReadonlySet<string> = new Set([SENSITIVE]);

/** configschema's Block.ValueMarks: marks for the attributes the schema declares sensitive. */
export function schemaValueMarks(b: Block, v: Value, path: Path = []): PathValueMarks[] {
  const out: PathValueMarks[] = [];
  if (v.kind !== "object") return out;
  for (const [name, a] of b.attributes) {
    const p: Path = [...path, { kind: "attr", name }];
    if (a.sensitive) {
      out.push({ path: p, marks: SENSITIVE_MARKS });
      continue;
    }
    const av = v.attrs.get(name);
    if (a.nestedType && av) out.push(...nestedObjectMarks(a.nestedType, av, p));
  }
  for (const [name, nb] of b.blockTypes) {
    const bv = v.attrs.get(name);
    if (!bv || !blockContainsSensitive(nb.block)) continue;
    const p: Path = [...path, { kind: "attr", name }];
    switch (bv.kind) {
      case "object":
        out.push(...schemaValueMarks(nb.block, bv, p));
        break;
      case "list":
      case "tuple":
        bv.elements.forEach((e, i) => out.push(...schemaValueMarks(nb.block, e, [...p, { kind: "index", key: indexVal(i) }])));
        break;
      case "map":
        for (const [k, e] of bv.attrs) out.push(...schemaValueMarks(nb.block, e, [...p, { kind: "index", key: strVal(k) }]));
        break;
      default:
        // Set elements cannot carry marks; OpenTofu leaves them unmarked too.
        break;
    }
  }
  return out;
}

function nestedObjectMarks(o: NestedObject, v: Value, path: Path): PathValueMarks[] {
  const out: PathValueMarks[] = [];
  const one = (ov: Value, p: Path): void => {
    if (ov.kind !== "object") return;
    for (const [name, a] of o.attributes) {
      const ap: Path = [...p, { kind: "attr", name }];
      if (a.sensitive) out.push({ path: ap, marks: SENSITIVE_MARKS });
      else if (a.nestedType) {
        const av = ov.attrs.get(name);
        if (av) out.push(...nestedObjectMarks(a.nestedType, av, ap));
      }
    }
  };
  switch (o.nesting) {
    case "single":
      one(v, path);
      break;
    case "list":
      if (v.kind === "list" || v.kind === "tuple") v.elements.forEach((e, i) => one(e, [...path, { kind: "index", key: indexVal(i) }]));
      break;
    case "map":
      if (v.kind === "map" || v.kind === "object") for (const [k, e] of v.attrs) one(e, [...path, { kind: "index", key: strVal(k) }]);
      break;
    case "set":
      break;
  }
  return out;
}

function indexVal(i: number): Value {
  return numberIntVal(i);
}
function strVal(s: string): Value {
  return stringVal(s);
}
