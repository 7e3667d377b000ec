// Provider schemas as OpenTofu's configschema models them: a Block has attributes and nested
// block types; an Attribute has either a type or (protocol 6) a nested object type. Converted
// from the protocol's Schema messages by `schemaFromProto`; `impliedType` gives the object type a
// value of the block has (configschema's ImpliedType), which is what DynamicValues encode against.

import {
  DynamicPseudoType,
  hasDynamicTypes,
  listOf,
  mapOf,
  marshalType,
  objectOf,
  setOf,
  typeFromJSON,
  withoutOptionalAttributesDeep,
  type Type,
} from "../../values/index.js";
import type {
  ProtoFunction,
  ProtoFunctionParameter,
  ProtoSchema,
  ProtoSchemaAttribute,
  ProtoSchemaBlock,
  ProtoSchemaNestedBlock,
  ProtoSchemaObject,
} from "../proto/types.js";

export type StringKind = "plain" | "markdown";

/** How a nested block type repeats. `group` is a single block whose absence means "all defaults". */
export type BlockNesting = "single" | "group" | "list" | "set" | "map";
/** How a nested attribute type (protocol 6) repeats. */
export type ObjectNesting = "single" | "list" | "set" | "map";

export interface Attribute {
  /** The attribute's type; absent when `nestedType` describes it instead. */
  readonly type?: Type;
  readonly nestedType?: NestedObject;
  readonly description: string;
  readonly descriptionKind: StringKind;
  readonly required: boolean;
  readonly optional: boolean;
  readonly computed: boolean;
  readonly sensitive: boolean;
  readonly deprecated: boolean;
  readonly deprecationMessage?: string;
  /** Set in configuration but never persisted (managed resources only). */
  readonly writeOnly: boolean;
}

export interface NestedObject {
  readonly attributes: ReadonlyMap<string, Attribute>;
  readonly nesting: ObjectNesting;
}

export interface NestedBlock {
  readonly block: Block;
  readonly nesting: BlockNesting;
  readonly minItems: number;
  readonly maxItems: number;
}

export interface Block {
  readonly attributes: ReadonlyMap<string, Attribute>;
  readonly blockTypes: ReadonlyMap<string, NestedBlock>;
  readonly description: string;
  readonly descriptionKind: StringKind;
  readonly deprecated: boolean;
  readonly deprecationMessage?: string;
}

/** A versioned block: the schema of a provider configuration, a resource type or a data source. */
export interface Schema {
  readonly version: number;
  readonly block: Block;
}

export interface FunctionParameter {
  readonly name: string;
  readonly type: Type;
  readonly allowNullValue: boolean;
  readonly allowUnknownValues: boolean;
  readonly description: string;
  readonly descriptionKind: StringKind;
}

/** A provider-defined function's signature. */
export interface FunctionDecl {
  readonly parameters: readonly FunctionParameter[];
  readonly variadicParameter?: FunctionParameter;
  readonly returnType: Type;
  readonly summary: string;
  readonly description: string;
  readonly descriptionKind: StringKind;
  readonly deprecationMessage?: string;
}

export const EmptyBlock: Block = {
  attributes: new Map(),
  blockTypes: new Map(),
  description: "",
  descriptionKind: "plain",
  deprecated: false,
};

/** A partial attribute filled with configschema's zero values (for building schemas in code). */
export function attribute(a: Partial<Attribute> & ({ type: Type } | { nestedType: NestedObject })): Attribute {
  return {
    description: "",
    descriptionKind: "plain",
    required: false,
    optional: false,
    computed: false,
    sensitive: false,
    deprecated: false,
    writeOnly: false,
    ...a,
  };
}

/** A block from plain records (for building schemas in code). */
export function block(
  attributes: Record<string, Attribute>,
  blockTypes: Record<string, NestedBlock> = {},
  extra: Partial<Omit<Block, "attributes" | "blockTypes">> = {},
): Block {
  return { ...EmptyBlock, ...extra, attributes: new Map(Object.entries(attributes)), blockTypes: new Map(Object.entries(blockTypes)) };
}

export function nestedBlock(b: Block, nesting: BlockNesting, minItems = 0, maxItems = 0): NestedBlock {
  return { block: b, nesting, minItems, maxItems };
}

// ---------------------------------------------------------------------------------------------
// Implied types (configschema/implied_type.go and decoder_spec.go)

/** The type of a value conforming to the block: an object, with no optional-attribute markers. */
export function impliedType(b: Block): Type {
  const cached = impliedCache.get(b);
  if (cached) return cached;
  const t = withoutOptionalAttributesDeep(blockSpecType(b));
  impliedCache.set(b, t);
  return t;
}

const impliedCache = new WeakMap<Block, Type>();

/** The type of one attribute's value. */
export function attributeImpliedType(a: Attribute): Type {
  if (a.nestedType) return withoutOptionalAttributesDeep(objectSpecType(a.nestedType));
  return a.type ?? DynamicPseudoType;
}

/** The type of one nested block type's value (a list of objects, a single object, …). */
export function nestedBlockImpliedType(nb: NestedBlock): Type {
  return withoutOptionalAttributesDeep(nestedBlockSpecType(nb));
}

/** The implied type of a nested object (protocol 6 nested attributes). */
export function objectImpliedType(o: NestedObject): Type {
  return withoutOptionalAttributesDeep(objectSpecType(o));
}

function blockSpecType(b: Block): Type {
  const attrs = new Map<string, Type>();
  for (const [name, a] of b.attributes) attrs.set(name, a.nestedType ? objectSpecType(a.nestedType) : (a.type ?? DynamicPseudoType));
  for (const [name, nb] of b.blockTypes) {
    // A name used for both an attribute and a block type is an invalid schema; the attribute wins.
    if (attrs.has(name)) continue;
    attrs.set(name, nestedBlockSpecType(nb));
  }
  return objectOf(attrs);
}

function nestedBlockSpecType(nb: NestedBlock): Type {
  const inner = blockSpecType(nb.block);
  switch (nb.nesting) {
    case "single":
    case "group":
      return inner;
    case "list":
      // hcldec's BlockTupleSpec: element types may differ, so the static type is unknowable.
      return hasDynamicTypes(inner) ? DynamicPseudoType : listOf(inner);
    case "set":
      return setOf(inner);
    case "map":
      // BlockObjectSpec for the same reason as lists.
      return hasDynamicTypes(inner) ? DynamicPseudoType : mapOf(inner);
  }
}

function objectSpecType(o: NestedObject): Type {
  const attrs = new Map<string, Type>();
  const optional: string[] = [];
  for (const [name, a] of o.attributes) {
    attrs.set(name, a.nestedType ? objectSpecType(a.nestedType) : (a.type ?? DynamicPseudoType));
    if (a.optional || a.computed) optional.push(name);
  }
  const obj = objectOf(attrs, optional);
  switch (o.nesting) {
    case "single":
      return obj;
    case "list":
      return listOf(obj);
    case "set":
      return setOf(obj);
    case "map":
      return mapOf(obj);
  }
}

/** True if any attribute of the block or its nested blocks is sensitive. */
export function containsSensitive(b: Block): boolean {
  for (const a of b.attributes.values()) {
    if (a.sensitive) return true;
    if (a.nestedType && objectContainsSensitive(a.nestedType)) return true;
  }
  for (const nb of b.blockTypes.values()) if (containsSensitive(nb.block)) return true;
  return false;
}

function objectContainsSensitive(o: NestedObject): boolean {
  for (const a of o.attributes.values()) {
    if (a.sensitive) return true;
    if (a.nestedType && objectContainsSensitive(a.nestedType)) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// From the protocol (plugin6/convert/schema.go, plugin/convert/schema.go)

/** A schema conversion problem: the provider sent something we cannot interpret. */
export class SchemaDecodeError extends Error {}

function num(v: number | string | undefined | null): number {
  if (v === undefined || v === null) return 0;
  return typeof v === "number" ? v : Number(v);
}

function stringKind(v: string | number | undefined): StringKind {
  return v === "MARKDOWN" || v === 1 ? "markdown" : "plain";
}

function decodeType(bytes: Uint8Array | null | undefined, where: string): Type {
  if (!bytes || bytes.length === 0) throw new SchemaDecodeError(`${where}: no type`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new SchemaDecodeError(`${where}: invalid type JSON`);
  }
  const r = typeFromJSON(parsed);
  if (!r.ok) throw new SchemaDecodeError(`${where}: ${r.error}`);
  return r.type;
}

const BLOCK_NESTING: Record<string, BlockNesting> = { SINGLE: "single", LIST: "list", SET: "set", MAP: "map", GROUP: "group" };
const BLOCK_NESTING_NUM: readonly (BlockNesting | undefined)[] = [undefined, "single", "list", "set", "map", "group"];
const OBJECT_NESTING: Record<string, ObjectNesting> = { SINGLE: "single", LIST: "list", SET: "set", MAP: "map" };
const OBJECT_NESTING_NUM: readonly (ObjectNesting | undefined)[] = [undefined, "single", "list", "set", "map"];

function attributeFromProto(a: ProtoSchemaAttribute, where: string): Attribute {
  const name = a.name ?? "";
  const path = `${where}.${name}`;
  const common = {
    description: a.description ?? "",
    descriptionKind: stringKind(a.description_kind),
    required: a.required === true,
    optional: a.optional === true,
    computed: a.computed === true,
    sensitive: a.sensitive === true,
    deprecated: a.deprecated === true,
    writeOnly: a.write_only === true,
    ...(a.deprecation_message ? { deprecationMessage: a.deprecation_message } : {}),
  };
  if (a.nested_type) return { ...common, nestedType: objectFromProto(a.nested_type, path) };
  return { ...common, type: decodeType(a.type, path) };
}

function objectFromProto(o: ProtoSchemaObject, where: string): NestedObject {
  const nesting = typeof o.nesting === "number" ? OBJECT_NESTING_NUM[o.nesting] : OBJECT_NESTING[o.nesting ?? ""];
  if (!nesting) throw new SchemaDecodeError(`${where}: invalid nesting mode ${String(o.nesting)}`);
  const attributes = new Map<string, Attribute>();
  for (const a of o.attributes ?? []) attributes.set(a.name ?? "", attributeFromProto(a, where));
  return { attributes, nesting };
}

function nestedBlockFromProto(nb: ProtoSchemaNestedBlock, where: string): NestedBlock {
  const path = `${where}.${nb.type_name ?? ""}`;
  const nesting = typeof nb.nesting === "number" ? BLOCK_NESTING_NUM[nb.nesting] : BLOCK_NESTING[nb.nesting ?? ""];
  if (!nesting) throw new SchemaDecodeError(`${path}: invalid nesting mode ${String(nb.nesting)}`);
  return {
    block: blockFromProto(nb.block ?? {}, path),
    nesting,
    minItems: num(nb.min_items),
    maxItems: num(nb.max_items),
  };
}

export function blockFromProto(b: ProtoSchemaBlock, where = ""): Block {
  const attributes = new Map<string, Attribute>();
  for (const a of b.attributes ?? []) attributes.set(a.name ?? "", attributeFromProto(a, where));
  const blockTypes = new Map<string, NestedBlock>();
  for (const nb of b.block_types ?? []) blockTypes.set(nb.type_name ?? "", nestedBlockFromProto(nb, where));
  return {
    attributes,
    blockTypes,
    description: b.description ?? "",
    descriptionKind: stringKind(b.description_kind),
    deprecated: b.deprecated === true,
    ...(b.deprecation_message ? { deprecationMessage: b.deprecation_message } : {}),
  };
}

/** Converts a protocol Schema; throws SchemaDecodeError when a type cannot be parsed. */
export function schemaFromProto(s: ProtoSchema | null | undefined, where = ""): Schema {
  if (!s) return { version: 0, block: EmptyBlock };
  return { version: num(s.version), block: s.block ? blockFromProto(s.block, where) : EmptyBlock };
}

function parameterFromProto(p: ProtoFunctionParameter, where: string): FunctionParameter {
  return {
    name: p.name ?? "",
    type: decodeType(p.type, `${where}(${p.name ?? ""})`),
    allowNullValue: p.allow_null_value === true,
    allowUnknownValues: p.allow_unknown_values === true,
    description: p.description ?? "",
    descriptionKind: stringKind(p.description_kind),
  };
}

export function functionFromProto(f: ProtoFunction, name: string): FunctionDecl {
  return {
    parameters: (f.parameters ?? []).map((p) => parameterFromProto(p, name)),
    ...(f.variadic_parameter ? { variadicParameter: parameterFromProto(f.variadic_parameter, name) } : {}),
    returnType: decodeType(f.return?.type, `${name} return`),
    summary: f.summary ?? "",
    description: f.description ?? "",
    descriptionKind: stringKind(f.description_kind),
    ...(f.deprecation_message ? { deprecationMessage: f.deprecation_message } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// To the protocol (for servers: the SDK and test plugins)

function encodeType(t: Type): Uint8Array {
  return new TextEncoder().encode(marshalType(t));
}

function attributeToProto(name: string, a: Attribute, protocol: 5 | 6): ProtoSchemaAttribute {
  const out: ProtoSchemaAttribute = {
    name,
    description: a.description,
    description_kind: a.descriptionKind === "markdown" ? "MARKDOWN" : "PLAIN",
    required: a.required,
    optional: a.optional,
    computed: a.computed,
    sensitive: a.sensitive,
    deprecated: a.deprecated,
    write_only: a.writeOnly,
  };
  if (a.deprecationMessage && protocol === 6) out.deprecation_message = a.deprecationMessage;
  if (a.nestedType) {
    if (protocol === 5) out.type = encodeType(objectImpliedType(a.nestedType));
    else out.nested_type = objectToProto(a.nestedType);
  } else out.type = encodeType(a.type ?? DynamicPseudoType);
  return out;
}

function objectToProto(o: NestedObject): ProtoSchemaObject {
  return {
    attributes: [...o.attributes].map(([n, a]) => attributeToProto(n, a, 6)),
    nesting: o.nesting === "single" ? "SINGLE" : o.nesting === "list" ? "LIST" : o.nesting === "set" ? "SET" : "MAP",
  };
}

export function blockToProto(b: Block, protocol: 5 | 6 = 6): ProtoSchemaBlock {
  const out: ProtoSchemaBlock = {
    attributes: [...b.attributes].map(([n, a]) => attributeToProto(n, a, protocol)),
    block_types: [...b.blockTypes].map(([n, nb]) => ({
      type_name: n,
      block: blockToProto(nb.block, protocol),
      nesting: nb.nesting.toUpperCase() as ProtoSchemaNestedBlock["nesting"],
      min_items: nb.minItems,
      max_items: nb.maxItems,
    })),
    description: b.description,
    description_kind: b.descriptionKind === "markdown" ? "MARKDOWN" : "PLAIN",
    deprecated: b.deprecated,
  };
  if (b.deprecationMessage && protocol === 6) out.deprecation_message = b.deprecationMessage;
  return out;
}

export function schemaToProto(s: Schema, protocol: 5 | 6 = 6): ProtoSchema {
  return { version: s.version, block: blockToProto(s.block, protocol) };
}

function parameterToProto(p: FunctionParameter): ProtoFunctionParameter {
  return {
    name: p.name,
    type: encodeType(p.type),
    allow_null_value: p.allowNullValue,
    allow_unknown_values: p.allowUnknownValues,
    description: p.description,
    description_kind: p.descriptionKind === "markdown" ? "MARKDOWN" : "PLAIN",
  };
}

export function functionToProto(f: FunctionDecl): ProtoFunction {
  const out: ProtoFunction = {
    parameters: f.parameters.map(parameterToProto),
    return: { type: encodeType(f.returnType) },
    summary: f.summary,
    description: f.description,
    description_kind: f.descriptionKind === "markdown" ? "MARKDOWN" : "PLAIN",
  };
  if (f.variadicParameter) out.variadic_parameter = parameterToProto(f.variadicParameter);
  if (f.deprecationMessage) out.deprecation_message = f.deprecationMessage;
  return out;
}
