// Provider-defined functions (`provider::<name>[::<alias>]::<function>(...)`) as the evaluator
// sees them: a module's function table that, when a call names such a function, finds the
// provider through the module's required_providers and builds a function from the provider's
// declaration whose calls go to the provider while the evaluator waits (callFunctionSync). As in
// OpenTofu's evalContextProviderFunction: the name must be in the module's required_providers, an
// alias must be one the module knows, a function the schema does not declare is a placeholder
// returning unknown during validate and "Function not found in provider" otherwise, arguments
// take no marks (they are put back on the result), and argument errors name the argument.
//
// The calls go to the configuration OpenTofu's ProviderFunctionTransformer picks
// (functionProviderConfig: the module's own or passed-in configuration, else the root's default),
// configured (the graph makes the calling node wait for it: providerFunctionTransformer), or to
// the provider's unconfigured instance (the one that answered the schema, kept for them) when
// there is no such configuration. A function the schema lacks is looked up in what the serving
// instance answered to GetFunctions, as OpenTofu does for providers whose functions depend on
// their configuration.
import { AbsProviderConfig, Module as ModuleAddr, NoKey, RootModule, type InstanceKey, type ModuleInstance, type Provider as ProviderAddr } from "../addrs/index.js";
import { allConfigs, localNameForProvider, providerKey, type Config, type Provider as ProviderBlock } from "../configs/index.js";
import { copyDiagnostic, errorDiag, type AnyExpression, type Diagnostic, type Range } from "../hcl/index.js";
import type { FunctionResolver } from "../lang/eval/index.js";
import { providerDiagnostics } from "./diags.js";
import type { CallFunctionResponse, CallFunctionSyncRequest, FunctionDecl, FunctionParameter, GetFunctionsResponse, Provider } from "../providers/index.js";
import {
  DynamicPseudoType,
  Func,
  argError,
  callError,
  staticReturnType,
  unknownVal,
  type Parameter,
} from "../values/index.js";

/** Where the table finds providers: the run's (or validate's) provider manager. */
export interface FunctionProviders {
  /** The unconfigured instance kept for function calls (and its schema). */
  functionInstance(p: ProviderAddr): Provider | undefined;
  /** A configuration instance's configured instance, once configured (a run's; validate has none). */
  instance?(addr: AbsProviderConfig, key: InstanceKey): Provider | undefined;
  /**
   * The instance key of a configuration passed into the caller's module with one
   * (`providers = { x = y.z[key] }`), evaluated for the calling module instance (a run's).
   */
  providerKey?(expr: AnyExpression, keyModule: readonly string[], caller: ModuleInstance, what: string): { key: InstanceKey | undefined; diagnostics: Diagnostic[] };
  providerSchema(p: ProviderAddr): { readonly functions: ReadonlyMap<string, FunctionDecl> } | undefined;
  /**
   * What an instance answered to GetFunctions, asked once it was configured (or started, for the
   * unconfigured one) when the configuration calls functions its provider's schema lacks.
   */
  functionsOf?(instance: Provider): GetFunctionsResponse | undefined;
}

/** The providers whose functions a configuration tree calls (to start before the walk). */
export function functionProviders(root: Config): ProviderAddr[] {
  const out = new Map<string, ProviderAddr>();
  for (const c of allConfigs(root)) {
    for (const call of c.module.providerFunctionCalls) {
      const name = call.name.split("::")[1] ?? "";
      const type = c.module.providerRequirements.requiredProviders.get(name)?.type;
      if (type) out.set(type.toString(), type);
    }
  }
  return [...out.values()];
}

/**
 * The providers whose functions the configuration calls by names their schemas lack: functions
 * a provider may add once configured (GetFunctions), which OpenTofu looks up there.
 */
export function providersWithFunctionsBeyondSchema(
  root: Config,
  schemaOf: (p: ProviderAddr) => { readonly functions: ReadonlyMap<string, FunctionDecl> } | undefined,
): ProviderAddr[] {
  const out = new Map<string, ProviderAddr>();
  for (const c of allConfigs(root)) {
    for (const call of c.module.providerFunctionCalls) {
      const parts = call.name.split("::");
      const type = c.module.providerRequirements.requiredProviders.get(parts[1] ?? "")?.type;
      const schema = type ? schemaOf(type) : undefined;
      if (type && schema && !schema.functions.has(parts[parts.length - 1] ?? "")) out.set(type.toString(), type);
    }
  }
  return [...out.values()];
}

type Resolved = { fn?: Func; diagnostics: Diagnostic[] };

/** A module's functions: the built-in table, plus provider-defined functions found on demand. */
export class ModuleFunctionTable extends Map<string, Func> implements FunctionResolver {
  private readonly resolved = new Map<string, Resolved>();

  constructor(
    builtins: ReadonlyMap<string, Func>,
    private readonly config: Config,
    private readonly providers: FunctionProviders,
    /** The validate walk: functions the schema does not declare are placeholders. */
    private readonly validate: boolean,
    /** The module instance the calls are made in, when a configuration serving them has a key. */
    private readonly instance?: ModuleInstance,
  ) {
    super(builtins);
  }

  resolveFunction(name: string, range: Range): Resolved | undefined {
    if (!name.startsWith("provider::")) return undefined;
    const parts = name.split("::");
    if (parts.length !== 3 && parts.length !== 4) return undefined;
    const cached = this.resolved.get(name);
    // The same failure is reported once per call site, as each call is its own lookup in OpenTofu.
    if (cached) return cached.fn ? cached : { diagnostics: cached.diagnostics.map((d) => copyDiagnostic(d, { subject: range })) };
    const r = this.resolve(name, parts[1] ?? "", parts.length === 4 ? (parts[2] ?? "") : "", parts[parts.length - 1] ?? "", range);
    this.resolved.set(name, r);
    // Listed from now on: later calls find it directly, and a failed call's diagnostic can show
    // its signature ("while calling provider::aws::arn_parse(arn)"), as HCL finds it in the table.
    if (r.fn) this.set(name, r.fn);
    return r;
  }

  private resolve(name: string, providerName: string, alias: string, fnName: string, range: Range): Resolved {
    const m = this.config.module;
    const req = m.providerRequirements.requiredProviders.get(providerName);
    if (!req?.type) {
      return fail("Unknown function provider", `Provider ${JSON.stringify(providerName)} does not exist within the required_providers of this module`, range);
    }
    const abs = new AbsProviderConfig(new ModuleAddr(this.config.path), req.type, alias);
    if (alias !== "" && !m.providerConfigs.has(`${providerName}.${alias}`) && !req.aliases.some((a) => a.alias === alias)) {
      return fail("Unknown function provider", `No provider instance ${JSON.stringify(providerName)} with alias ${JSON.stringify(alias)}`, range);
    }
    const provider = this.providers.functionInstance(req.type);
    const schema = this.providers.providerSchema(req.type);
    if (!provider || !schema) {
      // The provider failed to start; that has been reported where it failed.
      return fail("Uninitialized function provider", `Provider ${JSON.stringify(abs.toString())} has not yet been initialized`, range);
    }
    // The configuration that serves the call, once configured (the graph orders the call after
    // it); the unconfigured instance otherwise. Validate configures nothing and evaluates no key.
    const served = functionProviderConfig(this.config, name);
    const configured = served?.addr;
    const providers = this.providers;
    let key: InstanceKey = NoKey;
    if (served?.keyExpression && served.keyModule && this.instance && providers.providerKey && !this.validate) {
      const k = providers.providerKey(served.keyExpression, served.keyModule, this.instance, `${this.instance.toString()} ${name}`.trim());
      if (!k.key) return { diagnostics: k.diagnostics };
      key = k.key;
      if (!providers.instance?.(served.addr, key)) {
        return fail("Uninitialized function provider", `Provider ${JSON.stringify(served.addr.instanceString(key))} has not yet been initialized`, range);
      }
    }
    const serving = (): Provider => (configured && providers.instance?.(configured, key)) || provider;
    let decl = schema.functions.get(fnName);
    if (!decl) {
      if (this.validate) return { fn: VALIDATE_PLACEHOLDER, diagnostics: [] };
      // A provider may offer more functions once configured (OpenTofu asks GetFunctions).
      const more = providers.functionsOf?.(serving());
      const errors = providerDiagnostics(more?.diagnostics ?? [], range);
      if (errors.some((d) => d.severity === "error")) return { diagnostics: errors };
      decl = more?.functions.get(fnName);
      if (!decl) return fail("Function not found in provider", `Function ${JSON.stringify(name)} was not registered by provider`, range);
    }
    if (!provider.callFunctionSync) {
      return fail("Function not found in provider", `Provider ${JSON.stringify(abs.toString())} cannot be called from expressions`, range);
    }
    const found = decl;
    const call = (req: CallFunctionSyncRequest): CallFunctionResponse => {
      const p = serving();
      return p.callFunctionSync ? p.callFunctionSync(req) : { result: unknownVal(found.returnType), error: { text: "the provider cannot be called from expressions" } };
    };
    const fn = new Func({
      description: found.summary,
      params: found.parameters.map(parameter),
      ...(found.variadicParameter ? { varParam: parameter(found.variadicParameter) } : {}),
      type: staticReturnType(found.returnType),
      impl: (args) => {
        const r = call({ name: fnName, decl: found, arguments: args });
        if (!r.error) return { ok: true, value: r.result };
        return r.error.argument !== undefined ? argError(r.error.argument, r.error.text) : callError(r.error.text);
      },
    });
    return { fn, diagnostics: [] };
  }
}

function fail(summary: string, detail: string, range: Range): Resolved {
  return { diagnostics: [errorDiag(summary, detail, range)] };
}

/** OpenTofu's: providers may not mark their parameters dynamic or take marked values. */
function parameter(p: FunctionParameter): Parameter {
  return { name: p.name, type: p.type, allowNull: p.allowNullValue, allowUnknown: p.allowUnknownValues, allowDynamicType: false, allowMarked: false };
}

/** Validate cannot see functions a provider adds once configured, so every such call is unknown there. */
const VALIDATE_PLACEHOLDER = new Func({
  description: "Validate Placeholder",
  params: [],
  varParam: { name: "args", type: DynamicPseudoType, allowNull: true, allowUnknown: true, allowDynamicType: true, allowMarked: false },
  type: staticReturnType(DynamicPseudoType),
  impl: () => ({ ok: true, value: unknownVal(DynamicPseudoType) }),
});

// ---------------------------------------------------------------------------------------------
// Which configuration serves a call

/** The provider configuration a call is served by; `config` is undefined for an implied root default. */
export interface FunctionProviderConfig {
  readonly addr: AbsProviderConfig;
  readonly config: ProviderBlock | undefined;
  /** The static module path the configuration belongs to. */
  readonly module: readonly string[];
  /** A configuration with `for_each` passed in as `y.z[key]`: the key, and the call that passes it. */
  readonly keyExpression?: AnyExpression;
  readonly keyModule?: readonly string[];
}

/**
 * The provider configuration a call in `config`'s module is served by, as OpenTofu's
 * ProviderFunctionTransformer finds it: the module's own configuration of that name and alias
 * (`provider::<name>::<fn>` the default, `provider::<name>::<alias>::<fn>` the alias), or the one
 * its caller passes in `providers = {...}` (followed up through the callers, but not inherited
 * implicitly from a parent module's own block), when that is a
 * `provider` block without `for_each`, or one with `for_each` passed with an instance key (each
 * calling module instance evaluates the key: `providerKey`). Otherwise the root module's
 * default configuration of the provider, OpenTofu's stub address: configured when the root
 * declares it or a resource uses it (the run configures it then), the unconfigured instance else.
 * Undefined when the module's required_providers lack the name (the lookup reports that).
 */
export function functionProviderConfig(config: Config, name: string): FunctionProviderConfig | undefined {
  const parts = name.split("::");
  if (parts.length !== 3 && parts.length !== 4) return undefined;
  const providerName = parts[1] ?? "";
  const alias = parts.length === 4 ? (parts[2] ?? "") : "";
  const type = config.module.providerRequirements.requiredProviders.get(providerName)?.type;
  if (!type) return undefined;
  const own = ownOrPassedConfig(config, type, providerName, alias);
  if (own && !own.keyExpression && isPlainConfig(own.config)) return own;
  if (own && own.keyExpression && !isPlainConfig(own.config)) return own;
  let root = config;
  while (root.parent) root = root.parent;
  const rootDefault = root.module.providerConfigs.get(localNameForProvider(root.module, type));
  return { addr: new AbsProviderConfig(RootModule, type, ""), config: rootDefault && isPlainConfig(rootDefault) ? rootDefault : undefined, module: [] };
}

/**
 * The module's own configuration of `name` and `alias`, or the one its caller passes in, followed
 * up through the callers (OpenTofu's proxy providers). Unlike a resource's provider, a default
 * configuration is not inherited implicitly from the parent: such calls go to the root's default.
 */
function ownOrPassedConfig(
  start: Config,
  type: ProviderAddr,
  name: string,
  alias: string,
): (FunctionProviderConfig & { readonly config: ProviderBlock }) | undefined {
  let cfg = start;
  let n = name;
  let al = alias;
  let keyExpression: AnyExpression | undefined;
  let keyModule: readonly string[] | undefined;
  for (;;) {
    const pc = cfg.module.providerConfigs.get(providerKey(n, al));
    if (pc) return { addr: new AbsProviderConfig(new ModuleAddr(cfg.path), type, al), config: pc, module: cfg.path, ...(keyExpression && keyModule ? { keyExpression, keyModule } : {}) };
    const parent = cfg.parent;
    const passed = parent?.module.moduleCalls.get(cfg.path[cfg.path.length - 1] ?? "")?.providers.find((p) => p.inChild.name === n && p.inChild.alias === al);
    if (!parent || !passed) return undefined;
    n = passed.inParent.name;
    al = passed.inParent.alias;
    if (passed.inParent.keyExpression) {
      keyExpression = passed.inParent.keyExpression;
      keyModule = cfg.path;
    }
    cfg = parent;
  }
}

/** Whether some call in the module is served by a configuration passed in with an instance key. */
export function hasKeyedFunctionProvider(config: Config): boolean {
  return config.module.providerFunctionCalls.some((c) => functionProviderConfig(config, c.name)?.keyExpression !== undefined);
}

function isPlainConfig(pc: ProviderBlock): boolean {
  return !pc.instances && !pc.forEach;
}
