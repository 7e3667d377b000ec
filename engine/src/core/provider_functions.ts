// Provider-defined functions (`provider::<name>[::<alias>]::<function>(...)`) as the evaluator
// sees them: a module's function table that, when a call names such a function, finds the
// provider through the module's required_providers and builds a function from the provider's
// declaration whose calls go to the provider while the evaluator waits (callFunctionSync). As in
// OpenTofu's evalContextProviderFunction: the name must be in the module's required_providers, an
// alias must be one the module knows, a function the schema does not declare is a placeholder
// returning unknown during validate and "Function not found in provider" otherwise, arguments
// take no marks (they are put back on the result), and argument errors name the argument.
//
// The calls go to the module's own configuration of that provider (default or aliased, without
// `for_each`) when it has one, as OpenTofu's ProviderFunctionTransformer arranges (the graph makes
// the calling node wait for that provider: providerFunctionTransformer); otherwise to the
// provider's unconfigured instance (the one that answered the schema), which the run keeps for
// them. Functions a provider adds only once configured (GetFunctions) are not looked up (README
// Gaps).
import { AbsProviderConfig, Module as ModuleAddr, type Provider as ProviderAddr } from "../addrs/index.js";
import { allConfigs, type Config, type Provider as ProviderBlock } from "../configs/index.js";
import { copyDiagnostic, errorDiag, type Diagnostic, type Range } from "../hcl/index.js";
import type { FunctionResolver } from "../lang/eval/index.js";
import type { CallFunctionResponse, CallFunctionSyncRequest, FunctionDecl, FunctionParameter, Provider } from "../providers/index.js";
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
  /** A configuration's configured instance, once configured (a run's; validate has none). */
  configuredInstance?(addr: AbsProviderConfig): Provider | undefined;
  providerSchema(p: ProviderAddr): { readonly functions: ReadonlyMap<string, FunctionDecl> } | undefined;
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
    const decl = schema.functions.get(fnName);
    if (!decl) {
      if (this.validate) return { fn: VALIDATE_PLACEHOLDER, diagnostics: [] };
      return fail("Function not found in provider", `Function ${JSON.stringify(name)} was not registered by provider`, range);
    }
    if (!provider.callFunctionSync) {
      return fail("Function not found in provider", `Provider ${JSON.stringify(abs.toString())} cannot be called from expressions`, range);
    }
    // The module's own configuration of the provider serves the call once configured (the graph
    // orders the call after it); the unconfigured instance otherwise.
    const configured = configuredFunctionProvider(this.config, name)?.addr;
    const providers = this.providers;
    const call = (req: CallFunctionSyncRequest): CallFunctionResponse => {
      const p = (configured && providers.configuredInstance?.(configured)) || provider;
      return p.callFunctionSync ? p.callFunctionSync(req) : { result: unknownVal(decl.returnType), error: { text: "the provider cannot be called from expressions" } };
    };
    const fn = new Func({
      description: decl.summary,
      params: decl.parameters.map(parameter),
      ...(decl.variadicParameter ? { varParam: parameter(decl.variadicParameter) } : {}),
      type: staticReturnType(decl.returnType),
      impl: (args) => {
        const r = call({ name: fnName, decl, arguments: args });
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
// Calls served by a configured provider

/**
 * The provider configuration a call in `config`'s module is served by, when the module declares
 * it itself without `for_each`: `provider::<name>::<fn>` its default configuration and
 * `provider::<name>::<alias>::<fn>` that alias (OpenTofu's ProviderFunctionTransformer finds it in
 * the graph). Otherwise calls go to the unconfigured instance.
 */
export function configuredFunctionProvider(config: Config, name: string): { addr: AbsProviderConfig; config: ProviderBlock } | undefined {
  const parts = name.split("::");
  if (parts.length !== 3 && parts.length !== 4) return undefined;
  const providerName = parts[1] ?? "";
  const alias = parts.length === 4 ? (parts[2] ?? "") : "";
  const pc = config.module.providerConfigs.get(alias === "" ? providerName : `${providerName}.${alias}`);
  if (!pc?.providerType || pc.instances || pc.forEach) return undefined;
  return { addr: new AbsProviderConfig(new ModuleAddr(config.path), pc.providerType, alias), config: pc };
}
