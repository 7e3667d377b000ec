// Schemas as a provider author declares them: blocks of attributes and nested blocks, each
// attribute with a type (or nested attributes), its required/optional/computed flags, and the
// behaviour the SDK runs for it (defaults, plan modifiers, validators). Everything else about a
// schema is providers/schema's: a declaration converts (once, cached) into its configschema
// model, which gives the implied type every DynamicValue is encoded against and the tfplugin6
// `Schema` message, so the SDK and the plugin client cannot disagree about either.

import {
  attributeImpliedType,
  impliedType as blockImpliedType,
  type Attribute as ConfigAttribute,
  type Block as ConfigBlock,
  type BlockNesting,
  type FunctionDecl,
  type FunctionParameter as ConfigFunctionParameter,
  type NestedBlock as ConfigNestedBlock,
  type NestedObject,
  type ObjectNesting,
  type Schema as ConfigSchema,
  type StringKind,
} from "../providers/schema/index.js";
import { compareStrings, type Type, type Value } from "../values/index.js";
import type { PlanModifier } from "./planmodifiers.js";
import type { FunctionDefinition, FunctionParameter } from "./provider.js";
import type { Validator } from "./validators.js";

export type { BlockNesting, ObjectNesting as AttributeNesting, StringKind as DescriptionKind };

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
  readonly descriptionKind?: StringKind;
  /** true, or the deprecation message. */
  readonly deprecated?: boolean | string;
  /** The planned value when the configuration leaves the attribute null (needs `computed`). */
  readonly default?: Value;
  readonly planModifiers?: readonly PlanModifier[];
  readonly validators?: readonly Validator[];
}

export interface NestedAttributes {
  readonly nesting: ObjectNesting;
  readonly attributes: Readonly<Record<string, Attribute>>;
}

export interface Block {
  readonly attributes?: Readonly<Record<string, Attribute>>;
  readonly blocks?: Readonly<Record<string, NestedBlock>>;
  readonly description?: string;
  readonly descriptionKind?: StringKind;
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
// Into providers/schema's model. Names go in sorted order so the protocol message lists them as
// the SDK always has. Conversions are cached per declaration object: planning asks for the types
// of the same attributes on every request.

const blockCache = new WeakMap<Block, ConfigBlock>();
const attributeCache = new WeakMap<Attribute, ConfigAttribute>();

export function configSchema(s: Schema): ConfigSchema {
  return { version: s.version ?? 0, block: configBlock(s.block) };
}

export function configBlock(b: Block): ConfigBlock {
  const cached = blockCache.get(b);
  if (cached) return cached;
  const blockTypes = new Map<string, ConfigNestedBlock>();
  for (const [name, nb] of sortedEntries(b.blocks)) {
    blockTypes.set(name, { block: configBlock(nb.block), nesting: nb.nesting, minItems: nb.minItems ?? 0, maxItems: nb.maxItems ?? 0 });
  }
  const out: ConfigBlock = {
    attributes: configAttributes(b.attributes),
    blockTypes,
    description: b.description ?? "",
    descriptionKind: b.descriptionKind ?? "plain",
    ...deprecation(b.deprecated),
  };
  blockCache.set(b, out);
  return out;
}

function configAttributes(attrs: Readonly<Record<string, Attribute>> | undefined): Map<string, ConfigAttribute> {
  const out = new Map<string, ConfigAttribute>();
  for (const [name, a] of sortedEntries(attrs)) out.set(name, configAttribute(a));
  return out;
}

function configAttribute(a: Attribute): ConfigAttribute {
  const cached = attributeCache.get(a);
  if (cached) return cached;
  const nested: NestedObject | undefined = a.nested ? { attributes: configAttributes(a.nested.attributes), nesting: a.nested.nesting } : undefined;
  const out: ConfigAttribute = {
    ...(nested ? { nestedType: nested } : a.type ? { type: a.type } : {}),
    description: a.description ?? "",
    descriptionKind: a.descriptionKind ?? "plain",
    required: !!a.required,
    optional: !!a.optional,
    computed: !!a.computed,
    sensitive: !!a.sensitive,
    writeOnly: !!a.writeOnly,
    ...deprecation(a.deprecated),
  };
  attributeCache.set(a, out);
  return out;
}

function deprecation(d: boolean | string | undefined): { deprecated: boolean; deprecationMessage?: string } {
  return typeof d === "string" && d !== "" ? { deprecated: true, deprecationMessage: d } : { deprecated: !!d };
}

/** A provider function's signature (what GetFunctions serves and the JSON export prints). */
export function functionDecl<M>(f: FunctionDefinition<M>): FunctionDecl {
  return {
    parameters: f.parameters.map(functionParameter),
    ...(f.variadicParameter ? { variadicParameter: functionParameter(f.variadicParameter) } : {}),
    returnType: f.returnType,
    summary: f.summary ?? "",
    description: f.description ?? "",
    descriptionKind: "plain",
    ...(f.deprecationMessage ? { deprecationMessage: f.deprecationMessage } : {}),
  };
}

function functionParameter(p: FunctionParameter): ConfigFunctionParameter {
  return {
    name: p.name,
    type: p.type,
    allowNullValue: !!p.allowNull,
    allowUnknownValues: !!p.allowUnknown,
    description: p.description ?? "",
    descriptionKind: "plain",
  };
}

/** The object type every value of this block is encoded against (configschema's ImpliedType). */
export function impliedType(block: Block): Type {
  return blockImpliedType(configBlock(block));
}

/** The type of one attribute's value. */
export function attributeType(a: Attribute): Type {
  return attributeImpliedType(configAttribute(a));
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
