// cty's type system: three primitive types, three collection types, two structural types and the
// dynamic pseudo-type (a placeholder for "not known until later", written `any` in constraints).
// Types are immutable plain objects; compare them with typeEquals, never with ===, except for the
// primitive singletons exported below.

import { goJSONString } from "./gostrings.js";

export type Type =
  | { readonly kind: "string" }
  | { readonly kind: "number" }
  | { readonly kind: "bool" }
  | { readonly kind: "dynamic" }
  | { readonly kind: "list"; readonly element: Type }
  | { readonly kind: "set"; readonly element: Type }
  | { readonly kind: "map"; readonly element: Type }
  | ObjectType
  | TupleType;

export interface ObjectType {
  readonly kind: "object";
  /** Attribute types, keyed by name, in sorted name order. */
  readonly attributes: ReadonlyMap<string, Type>;
  /** Names of attributes that may be absent (only meaningful in type constraints). */
  readonly optional: ReadonlySet<string>;
}

export interface TupleType {
  readonly kind: "tuple";
  readonly elements: readonly Type[];
}

export type PrimitiveType = Extract<Type, { kind: "string" | "number" | "bool" }>;
export type CollectionType = Extract<Type, { kind: "list" | "set" | "map" }>;

export const StringType: Type = Object.freeze({ kind: "string" });
export const NumberType: Type = Object.freeze({ kind: "number" });
export const BoolType: Type = Object.freeze({ kind: "bool" });
export const DynamicPseudoType: Type = Object.freeze({ kind: "dynamic" });

export function listOf(element: Type): Type {
  return { kind: "list", element };
}

export function setOf(element: Type): Type {
  return { kind: "set", element };
}

export function mapOf(element: Type): Type {
  return { kind: "map", element };
}

function sortedEntries(attrs: Iterable<readonly [string, Type]>): Map<string, Type> {
  const entries = [...attrs];
  for (let i = 1; i < entries.length; i++) {
    // Most callers already give them in order: sorting is then skipped.
    if (compareStrings((entries[i - 1] as readonly [string, Type])[0], (entries[i] as readonly [string, Type])[0]) > 0) {
      entries.sort((a, b) => compareStrings(a[0], b[0]));
      break;
    }
  }
  return new Map(entries);
}

/** An object type; `optional` names attributes that a constraint allows to be absent. */
export function objectOf(
  attributes: Record<string, Type> | ReadonlyMap<string, Type>,
  optional: Iterable<string> = [],
): ObjectType {
  const entries: Array<readonly [string, Type]> =
    attributes instanceof Map ? [...attributes.entries()] : Object.entries(attributes);
  const attrs = sortedEntries(entries);
  const opt = new Set<string>();
  for (const name of optional) {
    if (!attrs.has(name)) throw new Error(`optional attribute ${name} is not an attribute of the object type`);
    opt.add(name);
  }
  return { kind: "object", attributes: attrs, optional: opt };
}

export function tupleOf(elements: readonly Type[]): TupleType {
  return { kind: "tuple", elements: [...elements] };
}

export const EmptyObject: ObjectType = objectOf({});
export const EmptyTuple: TupleType = tupleOf([]);

/** Compares strings by Unicode code point, which is the byte order of their UTF-8 (Go's `<`). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) {
      // Surrogates (U+D800–DFFF as code units) stand for code points above U+FFFF.
      return x < y ? -1 : 1;
    }
    if (x > 0xffff) i++;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

export function isPrimitive(t: Type): t is PrimitiveType {
  return t.kind === "string" || t.kind === "number" || t.kind === "bool";
}

export function isCollection(t: Type): t is CollectionType {
  return t.kind === "list" || t.kind === "set" || t.kind === "map";
}

export function isStructural(t: Type): t is ObjectType | TupleType {
  return t.kind === "object" || t.kind === "tuple";
}

export function typeEquals(a: Type, b: Type): boolean {
  if (a === b) return true;
  switch (a.kind) {
    case "string":
    case "number":
    case "bool":
    case "dynamic":
      return a.kind === b.kind;
    case "list":
    case "set":
    case "map":
      return b.kind === a.kind && typeEquals(a.element, (b as CollectionType).element);
    case "object": {
      if (b.kind !== "object" || a.attributes.size !== b.attributes.size) return false;
      if (a.optional.size !== b.optional.size) return false;
      for (const [name, t] of a.attributes) {
        const bt = b.attributes.get(name);
        if (!bt || !typeEquals(t, bt)) return false;
        if (a.optional.has(name) !== b.optional.has(name)) return false;
      }
      return true;
    }
    case "tuple": {
      if (b.kind !== "tuple" || a.elements.length !== b.elements.length) return false;
      return a.elements.every((t, i) => typeEquals(t, b.elements[i] as Type));
    }
    default:
      return assertNever(a);
  }
}

export function assertNever(x: never): never {
  throw new Error(`unexpected value ${JSON.stringify(x)}`);
}

/** True if `test` holds for the type or for any type inside it. */
export function someNestedType(t: Type, test: (t: Type) => boolean): boolean {
  if (test(t)) return true;
  switch (t.kind) {
    case "list":
    case "set":
    case "map":
      return someNestedType(t.element, test);
    case "object":
      for (const at of t.attributes.values()) if (someNestedType(at, test)) return true;
      return false;
    case "tuple":
      return t.elements.some((e) => someNestedType(e, test));
    default:
      return false;
  }
}

/** True if the type has DynamicPseudoType anywhere inside it. */
export function hasDynamicTypes(t: Type): boolean {
  return someNestedType(t, (x) => x.kind === "dynamic");
}

/** The element type of a collection (programmer error for other kinds). */
export function elementType(t: Type): Type {
  if (t.kind === "list" || t.kind === "set" || t.kind === "map") return t.element;
  throw new Error(`${friendlyName(t)} has no element type`);
}

/** The type with every object's optional-attribute markers removed, recursively. */
export function withoutOptionalAttributesDeep(t: Type): Type {
  switch (t.kind) {
    case "list":
      return listOf(withoutOptionalAttributesDeep(t.element));
    case "set":
      return setOf(withoutOptionalAttributesDeep(t.element));
    case "map":
      return mapOf(withoutOptionalAttributesDeep(t.element));
    case "object": {
      const attrs = new Map<string, Type>();
      for (const [n, at] of t.attributes) attrs.set(n, withoutOptionalAttributesDeep(at));
      return objectOf(attrs);
    }
    case "tuple":
      return tupleOf(t.elements.map(withoutOptionalAttributesDeep));
    default:
      return t;
  }
}

/** cty's Type.FriendlyName: "list of string", "object", "dynamic". */
export function friendlyName(t: Type): string {
  switch (t.kind) {
    case "string":
    case "number":
    case "bool":
      return t.kind;
    case "dynamic":
      return "dynamic";
    case "list":
    case "set":
    case "map":
      return `${t.kind} of ${friendlyName(t.element)}`;
    case "object":
      return "object";
    case "tuple":
      return "tuple";
    default:
      return assertNever(t);
  }
}

/** cty's FriendlyNameForConstraint: "list of any single type", "any type". */
export function friendlyNameForConstraint(t: Type): string {
  switch (t.kind) {
    case "dynamic":
      return "any type";
    case "list":
    case "set":
    case "map":
      return `${t.kind} of ${t.element.kind === "dynamic" ? "any single type" : friendlyNameForConstraint(t.element)}`;
    default:
      return friendlyName(t);
  }
}

const IDENT = /^[\p{ID_Start}_][\p{ID_Continue}-]*$/u;

/** HCL's type-expression syntax, as typeexpr.TypeString prints it: `map(object({a=string}))`. */
export function typeString(t: Type): string {
  switch (t.kind) {
    case "string":
    case "number":
    case "bool":
      return t.kind;
    case "dynamic":
      return "any";
    case "list":
    case "set":
    case "map":
      return `${t.kind}(${typeString(t.element)})`;
    case "object": {
      const parts: string[] = [];
      for (const [name, at] of t.attributes) {
        const key = IDENT.test(name) ? name : JSON.stringify(name);
        const inner = typeString(at);
        parts.push(`${key}=${t.optional.has(name) ? `optional(${inner})` : inner}`);
      }
      return `object({${parts.join(",")}})`;
    }
    case "tuple":
      return `tuple([${t.elements.map(typeString).join(",")}])`;
    default:
      return assertNever(t);
  }
}

/** The JSON form of a type used by cty (`"string"`, `["list","string"]`, `["object",{...},["opt"]]`). */
export type TypeJSON = string | [string, TypeJSON] | ["object", Record<string, TypeJSON>] | ["object", Record<string, TypeJSON>, string[]] | ["tuple", TypeJSON[]];

export function typeToJSON(t: Type): TypeJSON {
  switch (t.kind) {
    case "string":
    case "number":
    case "bool":
    case "dynamic":
      return t.kind;
    case "list":
    case "set":
    case "map":
      return [t.kind, typeToJSON(t.element)];
    case "object": {
      const attrs: Record<string, TypeJSON> = Object.create(null) as Record<string, TypeJSON>;
      for (const [n, at] of t.attributes) attrs[n] = typeToJSON(at);
      if (t.optional.size > 0) return ["object", attrs, [...t.optional].sort(compareStrings)];
      return ["object", attrs];
    }
    case "tuple":
      return ["tuple", t.elements.map(typeToJSON)];
    default:
      return assertNever(t);
  }
}

/** Serialises a type as cty's json.MarshalType does (compact, sorted object keys). */
export function marshalType(t: Type): string {
  return stableJSON(typeToJSON(t));
}

function stableJSON(v: unknown): string {
  if (typeof v === "string") return goJSONString(v);
  if (Array.isArray(v)) return `[${v.map(stableJSON).join(",")}]`;
  if (v && typeof v === "object") {
    const keys = Object.keys(v).sort(compareStrings);
    return `{${keys.map((k) => `${goJSONString(k)}:${stableJSON((v as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  throw new Error("unexpected value in type JSON");
}


export type TypeResult = { ok: true; type: Type } | { ok: false; error: string };

/** Parses cty's JSON type form (json.UnmarshalType). */
export function typeFromJSON(v: unknown): TypeResult {
  const fail = (error: string): TypeResult => ({ ok: false, error });
  if (typeof v === "string") {
    switch (v) {
      case "string":
        return { ok: true, type: StringType };
      case "number":
        return { ok: true, type: NumberType };
      case "bool":
        return { ok: true, type: BoolType };
      case "dynamic":
        return { ok: true, type: DynamicPseudoType };
      default:
        return fail(`invalid primitive type name ${JSON.stringify(v)}`);
    }
  }
  if (!Array.isArray(v) || typeof v[0] !== "string") return fail("invalid type specification");
  const kind = v[0];
  switch (kind) {
    case "list":
    case "set":
    case "map": {
      if (v.length !== 2) return fail(`invalid ${kind} type specification`);
      const el = typeFromJSON(v[1]);
      if (!el.ok) return el;
      return { ok: true, type: { kind, element: el.type } };
    }
    case "object": {
      if ((v.length !== 2 && v.length !== 3) || !v[1] || typeof v[1] !== "object" || Array.isArray(v[1])) {
        return fail("invalid object type specification");
      }
      const attrs = new Map<string, Type>();
      for (const [name, spec] of Object.entries(v[1] as Record<string, unknown>)) {
        const at = typeFromJSON(spec);
        if (!at.ok) return at;
        attrs.set(name, at.type);
      }
      const optional: string[] = [];
      if (v.length === 3) {
        if (!Array.isArray(v[2])) return fail("invalid object type optional attributes");
        for (const o of v[2]) {
          if (typeof o !== "string" || !attrs.has(o)) return fail("invalid object type optional attributes");
          optional.push(o);
        }
      }
      return { ok: true, type: objectOf(attrs, optional) };
    }
    case "tuple": {
      if (v.length !== 2 || !Array.isArray(v[1])) return fail("invalid tuple type specification");
      const els: Type[] = [];
      for (const spec of v[1]) {
        const et = typeFromJSON(spec);
        if (!et.ok) return et;
        els.push(et.type);
      }
      return { ok: true, type: tupleOf(els) };
    }
    default:
      return fail(`invalid type kind ${JSON.stringify(kind)}`);
  }
}
