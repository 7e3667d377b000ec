// A provider's schemas in the JSON form `terraform providers schema -json` prints for it (one
// entry of `provider_schemas`, command/jsonprovider), so tests and docs can compare ours with what
// Terraform read. Printed from providers/schema's model, which the declarations convert into.

import {
  attributeImpliedType,
  type Attribute,
  type Block,
  type BlockNesting,
  type FunctionDecl,
  type FunctionParameter,
  type NestedBlock,
  type ObjectNesting,
  type StringKind,
} from "../providers/schema/index.js";
import { compareStrings, typeToJSON, type TypeJSON } from "../values/index.js";
import type { GetProviderSchemaResponse } from "../providers/index.js";
import type { ProviderDefinition } from "./provider.js";
import { configSchema, functionDecl, sortedEntries, type Schema } from "./schema.js";

export interface SchemaJSON {
  version: number;
  block: BlockJSON;
}

export interface BlockJSON {
  attributes?: Record<string, AttributeJSON>;
  block_types?: Record<string, NestedBlockJSON>;
  description?: string;
  description_kind: StringKind;
  deprecated?: boolean;
}

export interface AttributeJSON {
  type?: TypeJSON;
  nested_type?: NestedTypeJSON;
  description?: string;
  description_kind: StringKind;
  deprecated?: boolean;
  required?: boolean;
  optional?: boolean;
  computed?: boolean;
  sensitive?: boolean;
  write_only?: boolean;
}

export interface NestedTypeJSON {
  attributes: Record<string, AttributeJSON>;
  nesting_mode: ObjectNesting;
}

export interface NestedBlockJSON {
  nesting_mode: BlockNesting;
  block: BlockJSON;
  min_items?: number;
  max_items?: number;
}

export interface FunctionParameterJSON {
  name: string;
  description?: string;
  is_nullable?: boolean;
  type: TypeJSON;
}

export interface FunctionJSON {
  description?: string;
  summary?: string;
  deprecation_message?: string;
  return_type: TypeJSON;
  parameters?: FunctionParameterJSON[];
  variadic_parameter?: FunctionParameterJSON;
}

export interface ProviderSchemaJSON {
  provider: SchemaJSON;
  resource_schemas?: Record<string, SchemaJSON>;
  data_source_schemas?: Record<string, SchemaJSON>;
  ephemeral_resource_schemas?: Record<string, SchemaJSON>;
  functions?: Record<string, FunctionJSON>;
}

export function schemaToJSON(s: Schema): SchemaJSON {
  const c = configSchema(s);
  return { version: c.version, block: blockToJSON(c.block) };
}

function sortedMap<T>(m: ReadonlyMap<string, T>): Array<[string, T]> {
  return [...m].sort((a, b) => compareStrings(a[0], b[0]));
}

function blockToJSON(b: Block): BlockJSON {
  // Keys in the order Terraform prints them.
  const out: Partial<BlockJSON> = {};
  if (b.attributes.size > 0) out.attributes = Object.fromEntries(sortedMap(b.attributes).map(([n, a]) => [n, attributeToJSON(a)]));
  if (b.blockTypes.size > 0) out.block_types = Object.fromEntries(sortedMap(b.blockTypes).map(([n, nb]) => [n, nestedBlockToJSON(nb)]));
  if (b.description) out.description = b.description;
  out.description_kind = b.descriptionKind;
  if (b.deprecated) out.deprecated = true;
  return out as BlockJSON;
}

function attributeToJSON(a: Attribute): AttributeJSON {
  const out: Partial<AttributeJSON> = {};
  if (a.nestedType) {
    out.nested_type = {
      attributes: Object.fromEntries(sortedMap(a.nestedType.attributes).map(([n, na]) => [n, attributeToJSON(na)])),
      nesting_mode: a.nestedType.nesting,
    };
  } else {
    out.type = typeToJSON(attributeImpliedType(a));
  }
  if (a.description) out.description = a.description;
  out.description_kind = a.descriptionKind;
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

function parameterJSON(p: FunctionParameter): FunctionParameterJSON {
  const out: FunctionParameterJSON = { name: p.name, type: typeToJSON(p.type) };
  if (p.description) out.description = p.description;
  if (p.allowNullValue) out.is_nullable = true;
  return out;
}

function functionJSON(f: FunctionDecl): FunctionJSON {
  const j: FunctionJSON = { return_type: typeToJSON(f.returnType) };
  if (f.description) j.description = f.description;
  if (f.summary) j.summary = f.summary;
  if (f.deprecationMessage) j.deprecation_message = f.deprecationMessage;
  if (f.parameters.length > 0) j.parameters = f.parameters.map(parameterJSON);
  if (f.variadicParameter) j.variadic_parameter = parameterJSON(f.variadicParameter);
  return j;
}

export function providerSchemaJSON<M>(def: ProviderDefinition<M>): ProviderSchemaJSON {
  const out: ProviderSchemaJSON = { provider: schemaToJSON(def.schema) };
  const map = (rec: Readonly<Record<string, { readonly schema: Schema }>> | undefined) => {
    const entries = sortedEntries(rec);
    return entries.length > 0 ? Object.fromEntries(entries.map(([n, r]) => [n, schemaToJSON(r.schema)])) : undefined;
  };
  const resources = map(def.resources);
  if (resources) out.resource_schemas = resources;
  const data = map(def.dataSources);
  if (data) out.data_source_schemas = data;
  const eph = map(def.ephemeralResources);
  if (eph) out.ephemeral_resource_schemas = eph;
  const fns = sortedEntries(def.functions);
  if (fns.length > 0) out.functions = Object.fromEntries(fns.map(([name, f]) => [name, functionJSON(functionDecl(f))]));
  return out;
}

/** The same entry from a provider's GetProviderSchema response (the CLI's `providers schema -json`). */
export function providerSchemaResponseJSON(r: GetProviderSchemaResponse): ProviderSchemaJSON {
  const schema = (x: { readonly version: number; readonly block: Block }): SchemaJSON => ({ version: x.version, block: blockToJSON(x.block) });
  const map = (m: ReadonlyMap<string, { readonly version: number; readonly block: Block }>) =>
    m.size > 0 ? Object.fromEntries(sortedMap(m).map(([n, x]) => [n, schema(x)])) : undefined;
  const out: ProviderSchemaJSON = { provider: schema(r.provider) };
  const resources = map(r.resourceTypes);
  if (resources) out.resource_schemas = resources;
  const data = map(r.dataSources);
  if (data) out.data_source_schemas = data;
  const eph = map(r.ephemeralResources);
  if (eph) out.ephemeral_resource_schemas = eph;
  if (r.functions.size > 0) out.functions = Object.fromEntries(sortedMap(r.functions).map(([name, f]) => [name, functionJSON(f)]));
  return out;
}
