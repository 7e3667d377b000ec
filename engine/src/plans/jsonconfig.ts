// The `configuration` section of the JSON plan (OpenTofu's internal/command/jsonconfig), from the
// static config tree; also what `show -json -config` prints, and in single-module mode what
// `show -json -module=DIR` prints. Expressions (`constant_value`, `references`) need HCL evaluation
// and reference analysis, which live above this module: callers inject them as an
// ExpressionMarshaler. Without one, `expressions` and `*_expression` members are left out.
import type { AnyExpression, Traverser } from "../hcl/index.js";
import { rootOnlyConfig, type Config, type ConfigBody, type Module, type Resource } from "../configs/index.js";
import { impliedProviderForUnqualifiedType, impliedProviderLocalName } from "../addrs/index.js";
import type { Block } from "../providers/schema/index.js";
import { DynamicPseudoType, marshalType, unmarkDeep } from "../values/index.js";
import { goMap, goObject, goString, omitEmptyArray, omitEmptyString } from "./gojson.js";
import { marshalProviderConfigs, providerConfigKey, type ProviderConfigs } from "./jsonconfig_providers.js";
import { valueJSON } from "./jsonstate.js";
import type { Schemas } from "./schemas.js";

export interface ExpressionMarshaler {
  /** The `expressions` map of a block body decoded against its schema; undefined to omit. */
  body(body: ConfigBody, schema: Block | undefined): string | undefined;
  /** One expression: `{"constant_value":…}` or `{"references":[…]}`; undefined to omit. */
  expression(expr: AnyExpression): string | undefined;
  /** The `expressions` map of a provisioner block of the given type; undefined to omit. */
  provisioner(type: string, body: ConfigBody): string | undefined;
}

export const noExpressions: ExpressionMarshaler = {
  body: () => undefined,
  expression: () => undefined,
  provisioner: () => undefined,
};

function traversalString(t: Traverser[]): string {
  let out = "";
  for (const s of t) {
    const step = s as unknown as { type?: string; name?: string; kind?: string };
    const name = step.name ?? "";
    if (out === "") out = name;
    else out += `.${name}`;
  }
  return out;
}

/** count and for_each are written only when they say something (no constant, no reference: left out). */
function repetition(ex: ExpressionMarshaler, e: AnyExpression | undefined): string | undefined {
  const json = e ? ex.expression(e) : undefined;
  return json === "{}" ? undefined : json;
}

function resourceProviderFullName(m: Module, r: Resource): string {
  if (r.provider) return r.provider.toString();
  const local = r.providerConfigRef?.name ?? impliedProviderLocalName(r.type);
  const req = m.providerRequirements.requiredProviders.get(local);
  return (req?.type ?? impliedProviderForUnqualifiedType(local)).toString();
}

/**
 * Single-module mode (MarshalSingleModule, `show -module=DIR`): one module read without its
 * children or provider schemas, so every expression, `schema_version` and each call's `module` are
 * left out.
 */
function marshalModule(c: Config, schemas: Schemas | undefined, ex: ExpressionMarshaler, providers: ProviderConfigs): string {
  const m = c.module;
  const single = schemas === undefined;

  const outputs: Array<[string, string]> = [];
  for (const [name, o] of m.outputs) {
    const expr = o.expr ? ex.expression(o.expr) : undefined;
    outputs.push([
      name,
      goObject([
        ["sensitive", o.sensitive ? "true" : undefined],
        ["ephemeral", o.ephemeral ? "true" : undefined],
        ["deprecated", omitEmptyString(o.deprecated)],
        ["expression", single ? undefined : (expr ?? "{}")],
        ["depends_on", omitEmptyArray(o.dependsOn.map((d) => goString(traversalString(d))))],
        ["description", omitEmptyString(o.description)],
      ]),
    ]);
  }

  const resourceJSON = (r: Resource): { address: string; json: string } => {
    const address = r.mode === "managed" ? `${r.type}.${r.name}` : `${r.mode}.${r.type}.${r.name}`;
    const local = r.providerConfigRef?.name ?? impliedProviderLocalName(r.type);
    const alias = r.providerConfigRef?.alias ?? "";
    const key = providers.resourceKey(providerConfigKey(c.path, alias ? `${local}.${alias}` : local));
    const fullName = resourceProviderFullName(m, r);
    const schema = schemas?.resourceTypeConfig(fullName, r.mode, r.type);
    return {
      address,
      json: goObject([
        ["address", goString(address)],
        ["mode", goString(r.mode)],
        ["type", goString(r.type)],
        ["name", goString(r.name)],
        ["provider_config_key", omitEmptyString(key)],
        [
          "provisioners",
          omitEmptyArray((r.managed?.provisioners ?? []).map((p) => goObject([["type", goString(p.type)], ["expressions", ex.provisioner(p.type, p.config)]]))),
        ],
        ["expressions", ex.body(r.config, schema?.block)],
        ["schema_version", single ? undefined : String(schema?.version ?? 0)],
        ["count_expression", repetition(ex, r.count)],
        ["for_each_expression", repetition(ex, r.forEach)],
        ["depends_on", omitEmptyArray(r.dependsOn.map((d) => goString(traversalString(d))))],
      ]),
    };
  };
  const byAddr = (a: { address: string }, b: { address: string }): number => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0);
  const managed = [...m.managedResources.values()].map(resourceJSON).sort(byAddr);
  const data = [...m.dataResources.values()].map(resourceJSON).sort(byAddr);
  const resources = [...managed, ...data].map((r) => r.json);

  const calls: Array<[string, string]> = [];
  for (const [name, mc] of m.moduleCalls) {
    const child = c.children.get(name);
    calls.push([
      name,
      goObject([
        ["source", omitEmptyString(mc.sourceAddrRaw)],
        ["expressions", ex.body(mc.config, undefined)],
        ["count_expression", repetition(ex, mc.count)],
        ["for_each_expression", repetition(ex, mc.forEach)],
        ["module", single ? undefined : child ? marshalModule(child, schemas, ex, providers) : "{}"],
        ["version_constraint", omitEmptyString(mc.version.raw)],
        ["depends_on", omitEmptyArray(mc.dependsOn.map((d) => goString(traversalString(d))))],
      ]),
    ]);
  }

  const variables: Array<[string, string]> = [];
  for (const [name, v] of m.variables) {
    let def: string | undefined;
    if (v.default !== undefined) def = valueJSON(unmarkDeep(v.default)[0]);
    // OpenTofu 1.11 (jsonconfig variable): the type constraint unless it is `any` (or absent), and
    // whether a caller must set it.
    const constraint = v.constraintType ?? v.type ?? DynamicPseudoType;
    variables.push([
      name,
      goObject([
        ["type", constraint.kind === "dynamic" ? undefined : marshalType(constraint)],
        ["default", def],
        ["description", omitEmptyString(v.description)],
        ["required", v.default === undefined ? "true" : undefined],
        ["sensitive", v.sensitive ? "true" : undefined],
        ["ephemeral", v.ephemeral ? "true" : undefined],
        ["deprecated", omitEmptyString(v.deprecated)],
      ]),
    ]);
  }

  return goObject([
    ["outputs", outputs.length > 0 ? goMap(outputs) : undefined],
    ["resources", omitEmptyArray(resources)],
    ["module_calls", calls.length > 0 ? goMap(calls) : undefined],
    ["variables", variables.length > 0 ? goMap(variables) : undefined],
  ]);
}

/** jsonconfig.Marshal: `{"provider_config":{…},"root_module":{…}}`. */
export function marshalConfigJSON(config: Config, schemas: Schemas, ex: ExpressionMarshaler = noExpressions): string {
  const providers = marshalProviderConfigs(config, schemas, ex);
  const root = marshalModule(config, schemas, ex, providers);
  return goObject([
    ["provider_config", providers.json()],
    ["root_module", root],
  ]);
}

/** jsonconfig.MarshalSingleModule: one module alone, without children, schemas or expressions. */
export function marshalSingleModuleJSON(module: Module): string {
  const config = rootOnlyConfig(module);
  const providers = marshalProviderConfigs(config, undefined, noExpressions);
  const root = marshalModule(config, undefined, noExpressions, providers);
  return goObject([
    ["provider_config", providers.json()],
    ["root_module", root],
  ]);
}
