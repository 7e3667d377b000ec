// Schemas as a provider author declares them: blocks of attributes and nested blocks, each
// attribute with a type (or nested attributes), its required/optional/computed flags, and the
// behaviour the SDK runs for it (defaults, plan modifiers, validators). From a schema the SDK
// derives the implied cty type (what every DynamicValue is encoded against), the tfplugin6
// `Schema` message, and the JSON that `terraform providers schema -json` prints.

import type { ProtoSchema, ProtoSchemaAttribute, ProtoSchemaBlock, ProtoSchemaNestedBlock, ProtoSchemaObject } from "../providers/proto/index.js";
import {
  DynamicPseudoType,
  assertNever,
  compareStrings,
  listOf,
  mapOf,
  marshalType,
  objectOf,
  setOf,
  typeToJSON,
  type Type,
  type TypeJSON,
  type Value,
} from "../values/index.js";
import type { PlanModifier } from "./planmodifiers.js";
import type { Validator } from "./validators.js";

export type DescriptionKind = "plain" | "markdown";
export type BlockNesting = "single" | "group" | "list" | "set" | "map";
export type AttributeNesting = "single" | "list" | "set" | "map";

export interface Attribute {
  /** The attribute's type; give either `type` or `nested`. */
  readonly type?: Type;
  /** Nested attributes (protocol 6 only): an object, or a list/set/map of objects. */
  readonly nested?: NestedAttributes;
  readonly required?: boolean;
  readonly optional?: boolean;
  readonly computed?: boolean;
  readonly sensitive?: boolean;
  /** Set in configuration but never stored in state (managed resources only). */
  readonly writeOnly?: boolean;
  readonly description?: string;
  readonly descriptionKind?: DescriptionKind;
  /** true, or the deprecation message. */
  readonly deprecated?: boolean | string;
  /** The planned value when the configuration leaves the attribute null (needs `computed`). */
  readonly default?: Value;
  readonly planModifiers?: readonly PlanModifier[];
  readonly validators?: readonly Validator[];
}

export interface NestedAttributes {
  readonly nesting: AttributeNesting;
  readonly attributes: Readonly<Record<string, Attribute>>;
}

export interface Block {
  readonly attributes?: Readonly<Record<string, Attribute>>;
  readonly blocks?: Readonly<Record<string, NestedBlock>>;
  readonly description?: string;
  readonly descriptionKind?: DescriptionKind;
  readonly deprecated?: boolean | string;
}

export interface NestedBlock {
  readonly nesting: BlockNesting;
  readonly block: Block;
  readonly minItems?: number;
  readonly maxItems?: number;
}

export interface Schema {
  /** The schema version recorded in state; bump it and add a state upgrader when state changes shape. */
  readonly version?: number;
  readonly block: Block;
}

// ---------------------------------------------------------------------------------------------
// Implied types

/** The object type every value of this block is encoded against (configschema's ImpliedType). */
export function impliedType(block: Block): Type {
  const attrs = new Map<string, Type>();
  for (const [name, a] of sortedEntries(block.attributes)) attrs.set(name, attributeType(a));
  for (const [name, nb] of sortedEntries(block.blocks)) attrs.set(name, nestedBlockType(nb));
  return objectOf(attrs);
}

/** The type of one attribute's value. */
export function attributeType(a: Attribute): Type {
  if (a.nested) return nestedAttributesType(a.nested);
  if (!a.type) throw new Error("attribute needs a type or nested attributes");
  return a.type;
}

function nestedAttributesType(n: NestedAttributes): Type {
  const attrs = new Map<string, Type>();
  const optional: string[] = [];
  for (const [name, a] of sortedEntries(n.attributes)) {
    attrs.set(name, attributeType(a));
    if (a.optional || a.computed) optional.push(name);
  }
  // Terraform's nested-attribute objects mark optional attributes in the type; the wire encoding
  // ignores the markers, and conversion of configuration uses them.
  const obj = objectOf(attrs, optional);
  switch (n.nesting) {
    case "single":
      return obj;
    case "list":
      return listOf(obj);
    case "set":
      return setOf(obj);
    case "map":
      return mapOf(obj);
    default:
      return assertNever(n.nesting);
  }
}

function nestedBlockType(nb: NestedBlock): Type {
  const inner = impliedType(nb.block);
  switch (nb.nesting) {
    case "single":
    case "group":
      return inner;
    case "list":
      // A list of blocks that contain dynamically-typed attributes is a tuple in Terraform; we
      // keep lists (and forbid dynamic attributes inside list blocks, see validateSchema).
      return listOf(inner);
    case "set":
      return setOf(inner);
    case "map":
      return mapOf(inner);
    default:
      return assertNever(nb.nesting);
  }
}

export function sortedEntries<T>(rec: Readonly<Record<string, T>> | undefined): Array<[string, T]> {
  if (!rec) return [];
  return Object.entries(rec).sort((a, b) => compareStrings(a[0], b[0]));
}

/** Programmer errors in a schema, reported once when a provider is served. */
export function validateSchema(block: Block, where: string): string[] {
  const problems: string[] = [];
  const walkAttrs = (attrs: Readonly<Record<string, Attribute>> | undefined, at: string): void => {
    for (const [name, a] of sortedEntries(attrs)) {
      const p = `${at}.${name}`;
      if (!!a.type === !!a.nested) problems.push(`${p}: give exactly one of type and nested`);
      const flags = [a.required, a.optional || a.computed].filter(Boolean).length;
      if (flags !== 1) problems.push(`${p}: must be required, or optional and/or computed`);
      if (a.required && a.computed) problems.push(`${p}: cannot be both required and computed`);
      if (a.default !== undefined && !a.computed) problems.push(`${p}: a default needs computed`);
      if (a.nested) walkAttrs(a.nested.attributes, p);
    }
  };
  const walk = (b: Block, at: string): void => {
    walkAttrs(b.attributes, at);
    for (const [name, nb] of sortedEntries(b.blocks)) {
      if (b.attributes && name in b.attributes) problems.push(`${at}.${name}: both an attribute and a block`);
      walk(nb.block, `${at}.${name}`);
    }
  };
  walk(block, where);
  return problems;
}

// ---------------------------------------------------------------------------------------------
// The wire form (tfplugin6.Schema)

const utf8 = new TextEncoder();

function deprecationMessage(d: boolean | string | undefined): string {
  return typeof d === "string" ? d : "";
}

function kind(k: DescriptionKind | undefined): "PLAIN" | "MARKDOWN" {
  return k === "markdown" ? "MARKDOWN" : "PLAIN";
}

export function schemaToProto(s: Schema): ProtoSchema {
  return { version: s.version ?? 0, block: blockToProto(s.block, s.version ?? 0) };
}

function blockToProto(b: Block, version: number): ProtoSchemaBlock {
  return {
    version,
    attributes: sortedEntries(b.attributes).map(([name, a]) => attributeToProto(name, a)),
    block_types: sortedEntries(b.blocks).map(([name, nb]) => nestedBlockToProto(name, nb)),
    description: b.description ?? "",
    description_kind: kind(b.descriptionKind),
    deprecated: !!b.deprecated,
    deprecation_message: deprecationMessage(b.deprecated),
  };
}

function attributeToProto(name: string, a: Attribute): ProtoSchemaAttribute {
  const out: ProtoSchemaAttribute = {
    name,
    description: a.description ?? "",
    required: !!a.required,
    optional: !!a.optional,
    computed: !!a.computed,
    sensitive: !!a.sensitive,
    description_kind: kind(a.descriptionKind),
    deprecated: !!a.deprecated,
    write_only: !!a.writeOnly,
    deprecation_message: deprecationMessage(a.deprecated),
  };
  if (a.nested) out.nested_type = nestedToProto(a.nested);
  else out.type = utf8.encode(marshalType(attributeType(a)));
  return out;
}

function nestedToProto(n: NestedAttributes): ProtoSchemaObject {
  return {
    attributes: sortedEntries(n.attributes).map(([name, a]) => attributeToProto(name, a)),
    nesting: n.nesting === "single" ? "SINGLE" : n.nesting === "list" ? "LIST" : n.nesting === "set" ? "SET" : "MAP",
  };
}

function nestedBlockToProto(name: string, nb: NestedBlock): ProtoSchemaNestedBlock {
  const nesting = { single: "SINGLE", group: "GROUP", list: "LIST", set: "SET", map: "MAP" } as const;
  return {
    type_name: name,
    block: blockToProto(nb.block, 0),
    nesting: nesting[nb.nesting],
    min_items: nb.minItems ?? 0,
    max_items: nb.maxItems ?? 0,
  };
}

// ---------------------------------------------------------------------------------------------
// The JSON form printed by `terraform providers schema -json` (command/jsonprovider)

export interface SchemaJSON {
  version: number;
  block: BlockJSON;
}

export interface BlockJSON {
  attributes?: Record<string, AttributeJSON>;
  block_types?: Record<string, NestedBlockJSON>;
  description?: string;
  description_kind: DescriptionKind;
  deprecated?: boolean;
}

export interface AttributeJSON {
  type?: TypeJSON;
  nested_type?: NestedTypeJSON;
  description?: string;
  description_kind: DescriptionKind;
  deprecated?: boolean;
  required?: boolean;
  optional?: boolean;
  computed?: boolean;
  sensitive?: boolean;
  write_only?: boolean;
}

export interface NestedTypeJSON {
  attributes: Record<string, AttributeJSON>;
  nesting_mode: AttributeNesting;
}

export interface NestedBlockJSON {
  nesting_mode: BlockNesting;
  block: BlockJSON;
  min_items?: number;
  max_items?: number;
}

export function schemaToJSON(s: Schema): SchemaJSON {
  return { version: s.version ?? 0, block: blockToJSON(s.block) };
}

function blockToJSON(b: Block): BlockJSON {
  // Keys in the order Terraform prints them.
  const out: Partial<BlockJSON> = {};
  const attrs = sortedEntries(b.attributes);
  if (attrs.length > 0) out.attributes = Object.fromEntries(attrs.map(([n, a]) => [n, attributeToJSON(a)]));
  const blocks = sortedEntries(b.blocks);
  if (blocks.length > 0) out.block_types = Object.fromEntries(blocks.map(([n, nb]) => [n, nestedBlockToJSON(nb)]));
  if (b.description) out.description = b.description;
  out.description_kind = b.descriptionKind ?? "plain";
  if (b.deprecated) out.deprecated = true;
  return out as BlockJSON;
}

function attributeToJSON(a: Attribute): AttributeJSON {
  const out: Partial<AttributeJSON> = {};
  if (a.nested) {
    out.nested_type = {
      attributes: Object.fromEntries(sortedEntries(a.nested.attributes).map(([n, na]) => [n, attributeToJSON(na)])),
      nesting_mode: a.nested.nesting,
    };
  } else {
    out.type = typeToJSON(a.type ?? DynamicPseudoType);
  }
  if (a.description) out.description = a.description;
  out.description_kind = a.descriptionKind ?? "plain";
  if (a.deprecated) out.deprecated = true;
  if (a.required) out.required = true;
  if (a.optional) out.optional = true;
  if (a.computed) out.computed = true;
  if (a.sensitive) out.sensitive = true;
  if (a.writeOnly) out.write_only = true;
  return out as AttributeJSON;
}

function nestedBlockToJSON(nb: NestedBlock): NestedBlockJSON {
  const out: NestedBlockJSON = { nesting_mode: nb.nesting, block: blockToJSON(nb.block) };
  if (nb.minItems) out.min_items = nb.minItems;
  if (nb.maxItems) out.max_items = nb.maxItems;
  return out;
}
