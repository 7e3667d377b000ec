// The schema part of `tofu validate` (OpenTofu's NodeValidatableResource and the provider node's
// validate step): every resource, data source and provider block of the module tree is decoded
// against its provider's schema — unknown arguments, missing required ones, wrong block counts,
// values of the wrong type, attributes that do not exist on a referenced resource — and then
// handed to the provider's ValidateResourceConfig / ValidateDataResourceConfig /
// ValidateProviderConfig. As in a validate walk, input variables are unknown values of their
// declared types, resources are unknown objects of their schema's type (or wholly unknown when
// they use count/for_each), and everything else a body may read is unknown. A managed resource's
// ignore_changes and replace_triggered_by paths are checked against schemas too (validate_paths.ts).
import { AbsProviderConfig, ConfigResource, Module as ModuleAddr, Resource as ResourceAddr, type Provider as ProviderAddr, type Reference } from "../addrs/index.js";
import { allConfigs, configBodyJustAttributes, staticFunctionTable, type Config, type ConfigBody, type Resource } from "../configs/index.js";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import { EvalContext, evaluateAny, nameSuggestion } from "../lang/eval/index.js";
import type { FunctionFileSystem } from "../lang/functions/index.js";
import { impliedType, type Block, type GetProviderSchemaResponse } from "../providers/index.js";
import { DynamicPseudoType, DynamicVal, EPHEMERAL, objectVal, stringVal, unknownVal, unmarkDeep, withMarks, type Value } from "../values/index.js";
import { providerDiagnosticsInBody } from "./diags.js";
import { ephemeralArgumentDiagnostics, ephemeralOutputDiagnostics, ephemeralVariableDiagnostics, rootEphemeralOutput } from "./ephemeral_values.js";
import { ignoredObjectAttributes } from "./ignored_attributes.js";
import { moduleCallArgumentDiagnostics } from "./module_call_args.js";
import { ModuleFunctionTable, functionProviders } from "./provider_functions.js";
import { ProviderManager, type ProviderFactory } from "./providers.js";
import { decodeBody } from "./schemabody.js";
import { validateLifecyclePaths } from "./validate_paths.js";
import { ReferenceChecker, type ResourceSchemaLookup } from "./validate_refs.js";
import { validateProvisioners } from "./provisioners.js";

export interface SchemaValidateOptions {
  readonly providers: ProviderFactory;
  readonly functionFS?: FunctionFileSystem;
  readonly workspace?: string;
  readonly cwd?: string;
}

/**
 * The provider schemas of a configuration tree, loaded once, for the reference checks that need
 * them and for validating each body. `close` stops the providers it started.
 */
export class SchemaValidator {
  private constructor(
    private readonly root: Config,
    private readonly manager: ProviderManager,
    private readonly opts: SchemaValidateOptions,
  ) {}

  /** Starts every provider the tree uses and fetches its schema. */
  static async open(root: Config, opts: SchemaValidateOptions): Promise<{ validator: SchemaValidator; diagnostics: Diagnostic[] }> {
    const manager = new ProviderManager(opts.providers, "1.11.0");
    const needed = new Map<string, ProviderAddr>();
    for (const c of allConfigs(root)) {
      for (const r of [...c.module.managedResources.values(), ...c.module.dataResources.values(), ...c.module.ephemeralResources.values()]) if (r.provider) needed.set(r.provider.toString(), r.provider);
      for (const p of c.module.providerConfigs.values()) if (p.providerType) needed.set(p.providerType.toString(), p.providerType);
    }
    for (const p of functionProviders(root)) needed.set(p.toString(), p);
    const diagnostics = await manager.loadSchemas(needed.values(), root);
    return { validator: new SchemaValidator(root, manager, opts), diagnostics };
  }

  /** The schema of a resource block's type, if its provider has one. */
  resourceSchema(r: Resource): Block | undefined {
    return r.provider ? this.manager.resourceTypeSchema(r.provider, r.mode, r.type)?.block : undefined;
  }

  /** Every provider, resource and data source body against its schema and its provider. */
  async validate(): Promise<Diagnostic[]> {
    const diagnostics: Diagnostic[] = [];
    for (const c of allConfigs(this.root)) diagnostics.push(...(await validateModule(c, this.manager, this.opts)));
    return diagnostics;
  }

  async close(): Promise<void> {
    await this.manager.close();
  }
}

/**
 * OpenTofu's Context.Validate once the configuration has loaded: the providers' schemas, every
 * reference (only the first problem in a chain, as the walk skips nodes whose dependencies
 * failed), then every body against its schema and its provider, with the lifecycle paths.
 */
export async function validateConfig(root: Config, opts: SchemaValidateOptions): Promise<Diagnostic[]> {
  const opened = await SchemaValidator.open(root, opts);
  try {
    const diagnostics = [...opened.diagnostics];
    if (hasErrors(diagnostics)) return diagnostics;
    const found = staticValidation(root, (r) => opened.validator.resourceSchema(r));
    diagnostics.push(...found);
    if (!hasErrors(found)) diagnostics.push(...(await opened.validator.validate()));
    return diagnostics;
  } finally {
    await opened.validator.close();
  }
}

/**
 * What OpenTofu's validate walk, which plan and apply also run first, finds with nothing but the
 * providers' schemas: module call arguments the graph cannot be built without, every reference,
 * then attributes of module call arguments that the variables' object types drop.
 */
export function staticValidation(root: Config, resourceSchema: ResourceSchemaLookup): Diagnostic[] {
  const configs = allConfigs(root);
  const args = configs.flatMap(moduleCallArgumentDiagnostics);
  if (hasErrors(args)) return args;
  const refs = new ReferenceChecker(resourceSchema).checkTree(configs);
  if (hasErrors(refs)) return [...args, ...refs];
  return [...args, ...refs, ...configs.flatMap(ignoredObjectAttributes)];
}

async function validateModule(c: Config, manager: ProviderManager, opts: SchemaValidateOptions): Promise<Diagnostic[]> {
  const diagnostics: Diagnostic[] = [];
  if (c.path.length === 0) for (const o of c.module.outputs.values()) if (o.ephemeral) diagnostics.push(rootEphemeralOutput(o));
  const ctx = validateContext(c, manager, opts);
  for (const p of c.module.providerConfigs.values()) {
    if (!p.providerType || p.isMocked) continue;
    const schema = manager.providerSchema(p.providerType);
    const provider = manager.unconfiguredInstance(p.providerType);
    if (!schema || !provider) continue;
    // OpenTofu validates each for_each instance under its own address; this validates the block once.
    const address = p.instances ? undefined : new AbsProviderConfig(new ModuleAddr(c.path), p.providerType, p.alias).toString();
    diagnostics.push(...(await validateBody(p.config, schema.provider.block, ctx, (config) => provider.validateProviderConfig({ config }), undefined, address)));
  }
  // In declaration order, so the report reads top to bottom.
  const resources = [...c.module.managedResources.values(), ...c.module.dataResources.values(), ...c.module.ephemeralResources.values()].sort(
    (a, b) => (a.declRange.filename < b.declRange.filename ? -1 : a.declRange.filename > b.declRange.filename ? 1 : a.declRange.start.byte - b.declRange.start.byte),
  );
  for (const r of resources) {
    if (!r.provider) continue;
    const schemas = manager.providerSchema(r.provider);
    const provider = manager.unconfiguredInstance(r.provider);
    if (!schemas || !provider) continue;
    const schema = r.mode === "data" ? schemas.dataSources.get(r.type) : r.mode === "managed" ? schemas.resourceTypes.get(r.type) : schemas.ephemeralResources.get(r.type);
    if (!schema) {
      diagnostics.push(unsupportedType(r, r.provider, schemas));
      continue;
    }
    const call = (config: Value) =>
      r.mode === "data"
        ? provider.validateDataResourceConfig({ typeName: r.type, config })
        : r.mode === "ephemeral"
          ? (provider.validateEphemeralResourceConfig?.({ typeName: r.type, config }) ?? Promise.resolve({ diagnostics: [] }))
          : provider.validateResourceConfig({ typeName: r.type, config });
    const lifecycle = r.mode === "managed" ? () => validateLifecyclePaths(r, schema.block, (ref) => referencedSchema(c, manager, ref)) : undefined;
    const address = new ConfigResource(new ModuleAddr(c.path), new ResourceAddr(r.mode, r.type, r.name)).toString();
    // What a managed resource or data source stores may not be ephemeral (write-only arguments aside).
    const stored = r.mode === "ephemeral" ? undefined : (v: Value) => ephemeralArgumentDiagnostics(v, schema.block, r.config, address);
    diagnostics.push(...(await validateBody(r.config, schema.block, ctx, call, lifecycle, address, stored)));
    if (r.mode === "managed") diagnostics.push(...validateProvisioners(r, ctx));
  }
  diagnostics.push(...validateNamedValues(c, ctx));
  return diagnostics;
}

/**
 * Local values, output values and module call arguments, evaluated as OpenTofu's validate walk
 * evaluates them: every input variable, resource, local and module output unknown (so this finds
 * what is wrong whatever the values: a failing function call, a wrong type, an ephemeral value
 * where none may go).
 */
function validateNamedValues(c: Config, ctx: EvalContext): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const l of c.module.locals.values()) diagnostics.push(...evaluateAny(l.expr, ctx).diagnostics);
  for (const o of c.module.outputs.values()) {
    if (!o.expr) continue;
    const r = evaluateAny(o.expr, ctx);
    diagnostics.push(...r.diagnostics);
    // An ephemeral root output is reported once, from the declaration (validateModule).
    if (!hasErrors(r.diagnostics) && !o.ephemeral) diagnostics.push(...ephemeralOutputDiagnostics(o, r.value, c.path.length === 0));
  }
  for (const call of c.module.moduleCalls.values()) {
    const child = c.children.get(call.name);
    for (const [name, attr] of configBodyJustAttributes(call.config).attributes) {
      const r = evaluateAny(attr.expr, ctx);
      diagnostics.push(...r.diagnostics);
      const decl = child?.module.variables.get(name);
      if (decl && !hasErrors(r.diagnostics)) diagnostics.push(...ephemeralVariableDiagnostics(name, decl.ephemeral, r.value, attr.expr.range));
    }
  }
  return diagnostics;
}

/** The schema of the resource (in the same module) a replace_triggered_by reference names. */
function referencedSchema(c: Config, manager: ProviderManager, ref: Reference): Block | undefined {
  const s = ref.subject;
  const addr = s.kind === "Resource" ? s : s.kind === "ResourceInstance" ? s.resource : undefined;
  if (!addr) return undefined;
  const r = [...c.module.managedResources.values()].find((x) => x.type === addr.type && x.name === addr.name && x.mode === addr.mode);
  return r?.provider ? manager.resourceTypeSchema(r.provider, r.mode, r.type)?.block : undefined;
}

async function validateBody(
  body: ConfigBody,
  block: Block,
  ctx: EvalContext,
  call: (config: Value) => Promise<{ diagnostics: Parameters<typeof providerDiagnosticsInBody>[0] }>,
  afterDecode?: () => Diagnostic[],
  address?: string,
  checkValue?: (v: Value) => Diagnostic[],
): Promise<Diagnostic[]> {
  const decoded = decodeBody(body, block, ctx);
  if (decoded.diagnostics.some((d) => d.severity === "error")) return decoded.diagnostics;
  const misplaced = checkValue?.(decoded.value) ?? [];
  if (hasErrors(misplaced)) return [...decoded.diagnostics, ...misplaced];
  // OpenTofu asks the provider even when these checks fail.
  const more = afterDecode?.() ?? [];
  const [config] = unmarkDeep(decoded.value);
  const resp = await call(config);
  return [...decoded.diagnostics, ...more, ...providerDiagnosticsInBody(resp.diagnostics, body, address)];
}

/** OpenTofu's "Invalid resource type" / "Invalid data source", with its suggestions. */
function unsupportedType(r: Resource, provider: ProviderAddr, schemas: GetProviderSchemaResponse): Diagnostic {
  const data = r.mode === "data";
  const own = data ? schemas.dataSources : schemas.resourceTypes;
  const other = data ? schemas.resourceTypes : schemas.dataSources;
  let suggestion = "";
  if (other.has(r.type)) {
    suggestion = data
      ? `\n\nDid you intend to use the managed resource type ${JSON.stringify(r.type)}? If so, declare this using a "resource" block instead of a "data" block.`
      : `\n\nDid you intend to use the data source ${JSON.stringify(r.type)}? If so, declare this using a "data" block instead of a "resource" block.`;
  } else {
    const s = nameSuggestion(r.type, [...own.keys()]);
    if (s) suggestion = ` Did you mean ${JSON.stringify(s)}?`;
  }
  return data
    ? errorDiag("Invalid data source", `The provider ${provider.forDisplay()} does not support data source ${JSON.stringify(r.type)}.${suggestion}`, r.typeRange)
    : errorDiag("Invalid resource type", `The provider ${provider.forDisplay()} does not support resource type ${JSON.stringify(r.type)}.${suggestion}`, r.typeRange);
}

/** What a body in this module sees during validation. */
function validateContext(c: Config, manager: ProviderManager, opts: SchemaValidateOptions): EvalContext {
  const vars = new Map<string, Value>();
  for (const [name, v] of c.module.variables) vars.set(name, v.ephemeral ? withMarks(unknownVal(v.constraintType ?? DynamicPseudoType), EPHEMERAL) : unknownVal(v.constraintType ?? DynamicPseudoType));
  const byType = new Map<string, Map<string, Value>>();
  const data = new Map<string, Map<string, Value>>();
  for (const r of [...c.module.managedResources.values(), ...c.module.dataResources.values()]) {
    const target = r.mode === "data" ? data : r.mode === "managed" ? byType : undefined;
    if (!target) continue;
    const schema = r.provider ? manager.resourceTypeSchema(r.provider, r.mode, r.type) : undefined;
    const v = r.count || r.forEach || !schema ? DynamicVal : unknownVal(impliedType(schema.block));
    const names = target.get(r.type) ?? new Map<string, Value>();
    names.set(r.name, v);
    target.set(r.type, names);
  }
  const variables = new Map<string, Value>([
    ["var", objectVal(vars)],
    ["local", DynamicVal],
    ["module", DynamicVal],
    ["each", DynamicVal],
    ["count", DynamicVal],
    ["self", DynamicVal],
    ["path", objectVal(new Map([["module", stringVal(c.module.sourceDir)], ["root", stringVal(".")], ["cwd", stringVal(opts.cwd ?? ".")]]))],
    ["terraform", objectVal(new Map([["workspace", stringVal(opts.workspace ?? "default")]]))],
  ]);
  for (const [type, names] of byType) variables.set(type, objectVal(names));
  variables.set("data", objectVal(new Map([...data].map(([type, names]) => [type, objectVal(names)]))));
  // Ephemeral resources: unknown, and ephemeral, so misplaced references show up already here.
  const ephemeral = new Map<string, Map<string, Value>>();
  for (const r of c.module.ephemeralResources.values()) {
    const schema = r.provider ? manager.resourceTypeSchema(r.provider, r.mode, r.type) : undefined;
    const v = withMarks(r.count || r.forEach || !schema ? DynamicVal : unknownVal(impliedType(schema.block)), EPHEMERAL);
    ephemeral.set(r.type, (ephemeral.get(r.type) ?? new Map()).set(r.name, v));
  }
  variables.set("ephemeral", objectVal(new Map([...ephemeral].map(([type, names]) => [type, objectVal(names)]))));
  const builtins = staticFunctionTable({ baseDir: c.module.sourceDir, ...(opts.functionFS ? { fs: opts.functionFS } : {}) });
  return new EvalContext(variables, new ModuleFunctionTable(builtins, c, manager, true));
}

