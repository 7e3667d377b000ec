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
import { allConfigs, configBodyJustAttributes, evaluateForEachExpression, inputVariableDeclaration, modulePathString, type Config, type ConfigBody, type Resource } from "../configs/index.js";
import { prepareFinalInputVariableValue } from "../configs/inputvars/index.js";
import { errorDiag, hasErrors, type AnyExpression, type Diagnostic } from "../hcl/index.js";
import { evaluateAny, nameSuggestion, type EvalContext } from "../lang/eval/index.js";
import type { FunctionFileSystem } from "../lang/functions/index.js";
import type { Block, GetProviderSchemaResponse } from "../providers/index.js";
import { unmarkDeep, type Value } from "../values/index.js";
import { providerDiagnosticsInBody } from "./diags.js";
import { ephemeralArgumentDiagnostics, ephemeralOutputDiagnostics, ephemeralVariableDiagnostics, rootEphemeralOutput } from "./ephemeral_values.js";
import { ignoredObjectAttributes } from "./ignored_attributes.js";
import { moduleCallArgumentDiagnostics } from "./module_call_args.js";
import { sensitiveOutputDiagnostics } from "./output_sensitivity.js";
import { validateScope, type ValidateScope } from "./validate_scope.js";
import { evaluateCount } from "./expand.js";
import { buildGraph, planTransformers } from "./builder.js";
import type { BuildContext } from "./transform.js";
import { State } from "../states/index.js";
import { missingPassedProviders, undeclaredProviderAliases } from "./provider_missing.js";
import { deprecatedVariableWarning, type DeprecationWarningLevel } from "./deprecation.js";
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
  readonly deprecationWarnings?: DeprecationWarningLevel;
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

  /** The cycles in the configuration's graph (the plan graph over an empty state). */
  cycles(): Diagnostic[] {
    const b: BuildContext = { config: this.root, state: new State(), providers: this.manager, destroy: false, changes: [] };
    return buildGraph(b, planTransformers(false)).diagnostics.filter((d) => d.summary.startsWith("Cycle: "));
  }

  /** Every provider, resource and data source body against its schema and its provider. */
  async validate(): Promise<Diagnostic[]> {
    return validateBodies(this.root, this.manager, this.opts);
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
    const found = staticValidation(root, (r) => opened.validator.resourceSchema(r), true);
    diagnostics.push(...found);
    if (hasErrors(found)) return diagnostics;
    // The walk needs its graph: a cycle stops it before anything is evaluated.
    const cycles = opened.validator.cycles();
    if (hasErrors(cycles)) return [...diagnostics, ...cycles];
    diagnostics.push(...(await opened.validator.validate()));
    return diagnostics;
  } finally {
    await opened.validator.close();
  }
}

/**
 * What OpenTofu's validate walk, which plan and apply also run first, finds with nothing but the
 * providers' schemas: module call arguments the graph cannot be built without, every reference,
 * then attributes of module call arguments that the variables' object types drop. `validateCommand`:
 * for `validate` itself, where the root module's configuration_aliases need no provider block.
 */
export function staticValidation(root: Config, resourceSchema: ResourceSchemaLookup, validateCommand = false): Diagnostic[] {
  const configs = allConfigs(root);
  const args = configs.flatMap(moduleCallArgumentDiagnostics);
  if (hasErrors(args)) return args;
  // The graph is built with the providers passed to modules before anything is checked in it.
  const passed = configs.flatMap(missingPassedProviders);
  if (hasErrors(passed)) return [...args, ...passed];
  const refs = new ReferenceChecker(resourceSchema).checkTree(configs);
  if (hasErrors(refs)) return [...args, ...refs];
  return [...args, ...refs, ...configs.flatMap((c) => undeclaredProviderAliases(c, validateCommand)), ...configs.flatMap(ignoredObjectAttributes)];
}

/**
 * The schema part of the validate walk over a tree whose schemas `manager` has loaded: every
 * provider, resource and data source body against its schema and its provider's Validate* call,
 * then locals, outputs and module call arguments evaluated over unknowns.
 */
export async function validateBodies(root: Config, manager: ProviderManager, opts: SchemaValidateOptions): Promise<Diagnostic[]> {
  const diagnostics: Diagnostic[] = [];
  for (const c of allConfigs(root)) diagnostics.push(...(await validateModule(c, manager, opts)));
  return diagnostics;
}

async function validateModule(c: Config, manager: ProviderManager, opts: SchemaValidateOptions): Promise<Diagnostic[]> {
  const diagnostics: Diagnostic[] = [];
  if (c.path.length === 0) for (const o of c.module.outputs.values()) if (o.ephemeral) diagnostics.push(rootEphemeralOutput(o));
  const scope = validateScope(c, manager, opts);
  diagnostics.push(...scope.diagnostics);
  const ctx = scope.ctx;
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
    diagnostics.push(...validateExpansion(r.count, r.forEach, scope));
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
  diagnostics.push(...validateNamedValues(c, scope, opts.deprecationWarnings));
  return diagnostics;
}

/**
 * validateCount / validateForEach: the value must be usable as `count` or `for_each` whatever the
 * inputs turn out to be; one not known yet is left to the plan walk.
 */
function validateExpansion(count: AnyExpression | undefined, forEach: AnyExpression | undefined, scope: ValidateScope): Diagnostic[] {
  if (count && !scope.downstreamOfFailure(count)) return evaluateCount(count, scope.ctx, { allowUnknown: true }).diagnostics;
  if (forEach && !scope.downstreamOfFailure(forEach)) return evaluateForEachExpression(forEach, () => ({ ctx: scope.ctx, diagnostics: [] }), { allowUnknown: true }).diagnostics;
  return [];
}

/**
 * Output values and module call arguments, evaluated as OpenTofu's validate walk evaluates them
 * (validate_scope.ts): this finds what is wrong whatever the inputs are — a failing function call,
 * a wrong type for a child's variable, a sensitive or ephemeral value where none may go.
 */
function validateNamedValues(c: Config, scope: ValidateScope, deprecationWarnings: DeprecationWarningLevel = "all"): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const ctx = scope.ctx;
  const root = c.path.length === 0;
  for (const o of c.module.outputs.values()) {
    if (!o.expr || scope.downstreamOfFailure(o.expr)) continue;
    const r = evaluateAny(o.expr, ctx);
    diagnostics.push(...r.diagnostics);
    if (hasErrors(r.diagnostics)) continue;
    // An ephemeral root output is reported once, from the declaration (validateModule).
    const eph = o.ephemeral ? [] : ephemeralOutputDiagnostics(o, r.value, root);
    diagnostics.push(...eph);
    if (root && !hasErrors(eph) && !o.sensitive) diagnostics.push(...sensitiveOutputDiagnostics(o, r.value));
  }
  for (const call of c.module.moduleCalls.values()) {
    diagnostics.push(...validateExpansion(call.count, call.forEach, scope));
    const child = c.children.get(call.name);
    for (const [name, attr] of configBodyJustAttributes(call.config).attributes) {
      const decl = child?.module.variables.get(name);
      const deprecated = decl ? deprecatedVariableWarning(call, decl, attr.range, deprecationWarnings) : undefined;
      if (deprecated) diagnostics.push(deprecated);
      if (scope.downstreamOfFailure(attr.expr)) continue;
      const r = evaluateAny(attr.expr, ctx);
      diagnostics.push(...r.diagnostics);
      if (!decl || hasErrors(r.diagnostics)) continue;
      const eph = ephemeralVariableDiagnostics(name, decl.ephemeral, r.value, attr.expr.range);
      diagnostics.push(...eph);
      if (hasErrors(eph)) continue;
      const addr = `${modulePathString([...c.path, call.name])}.var.${name}`;
      diagnostics.push(...prepareFinalInputVariableValue({ value: r.value, sourceType: "config", sourceRange: attr.expr.range }, inputVariableDeclaration(decl), addr).diagnostics);
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


