// A provider's schemas in the JSON form `terraform providers schema -json` prints for it (one
// entry of `provider_schemas`), so tests and docs can compare ours with what Terraform read.

import { typeToJSON, type TypeJSON } from "../values/index.js";
import type { FunctionParameter, ProviderDefinition } from "./provider.js";
import { schemaToJSON, sortedEntries, type SchemaJSON } from "./schema.js";

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

function parameterJSON(p: FunctionParameter): FunctionParameterJSON {
  const out: FunctionParameterJSON = { name: p.name, type: typeToJSON(p.type) };
  if (p.description) out.description = p.description;
  if (p.allowNull) out.is_nullable = true;
  return out;
}

export function providerSchemaJSON<M>(def: ProviderDefinition<M>): ProviderSchemaJSON {
  const out: ProviderSchemaJSON = { provider: schemaToJSON(def.schema) };
  const map = <T extends { schema: Parameters<typeof schemaToJSON>[0] }>(rec: Readonly<Record<string, T>> | undefined) => {
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
  if (fns.length > 0) {
    out.functions = Object.fromEntries(
      fns.map(([name, f]) => {
        const j: FunctionJSON = { return_type: typeToJSON(f.returnType) };
        if (f.description) j.description = f.description;
        if (f.summary) j.summary = f.summary;
        if (f.deprecationMessage) j.deprecation_message = f.deprecationMessage;
        if (f.parameters.length > 0) j.parameters = f.parameters.map(parameterJSON);
        if (f.variadicParameter) j.variadic_parameter = parameterJSON(f.variadicParameter);
        return [name, j];
      }),
    );
  }
  return out;
}
