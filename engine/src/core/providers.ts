// Provider instances for one run (OpenTofu's contextPlugins plus the provider part of its
// BuiltinEvalContext): schemas are fetched once per provider, each provider configuration (each
// instance key, for configurations with `for_each`) gets its own configured instance, every
// instance lives for the whole run, and all are closed at the end. The factory learns which
// configuration instance it starts for, and a resource hook may stand in for the instance a
// resource instance uses: that is how `tofu test` mocks one configuration and overrides one
// resource (NodeApplyableProvider's IsMocked, NodeAbstractResourceInstance.getProvider).
import type { AbsProviderConfig, AbsResourceInstance, InstanceKey, Provider as ProviderAddr, ResourceMode } from "../addrs/index.js";
import { allConfigs, type Config, type ConfigBody } from "../configs/index.js";
import type { Diagnostic } from "../hcl/index.js";
import { DEFAULT_CLIENT_CAPABILITIES, type GetFunctionsResponse, type GetProviderSchemaResponse, type Provider, type Schema } from "../providers/index.js";
import type { ProviderSchemaSet } from "../plans/index.js";
import type { State } from "../states/index.js";
import type { Value } from "../values/index.js";
import { EMPTY_CONFIG_BODY, providerDiagnosticsInBody } from "./diags.js";
import { functionProviders, providersWithFunctionsBeyondSchema } from "./provider_functions.js";

/** One instance of a provider configuration (the key is NoKey unless the block has `for_each`). */
export interface ProviderInstanceAddr {
  readonly config: AbsProviderConfig;
  readonly key: InstanceKey;
}

export type ProviderFactoryResult =
  | {
      ok: true;
      provider: Provider;
      /**
       * A start without a configuration instance (for the schema and validation): false keeps
       * the instance from serving the first configuration, which then gets a start of its own.
       * A factory whose configurations differ (a test mocking some of them) says false.
       */
      reusable?: boolean;
      /**
       * A start for a configuration instance: true when the instance takes no configuration
       * (a test's mocked provider): its provider block is not evaluated and neither
       * ValidateProviderConfig nor ConfigureProvider is called.
       */
      preconfigured?: boolean;
    }
  | { ok: false; diagnostics: Diagnostic[] };

/**
 * Starts a fresh, unconfigured instance of a provider (builtin in process, or a plugin), for the
 * configuration instance given, or, without one, for the provider's schema and the calls made
 * before configuration.
 */
export type ProviderFactory = (provider: ProviderAddr, instance?: ProviderInstanceAddr) => Promise<ProviderFactoryResult>;

/**
 * The provider a resource instance's calls go to, given the configured instance it resolved to
 * (`tofu test` answers overridden resources in process). Returning `provider` changes nothing.
 */
export type ResourceInstanceProvider = (req: {
  readonly resource: AbsResourceInstance;
  readonly config: AbsProviderConfig;
  readonly key: InstanceKey;
  readonly provider: Provider;
  readonly schema: GetProviderSchemaResponse;
}) => Provider;

/** Every provider the configuration and state (and `extra`, e.g. a plan's changes) need, for their schemas. */
export function providersNeeded(config: Config, state: State, extra: Iterable<ProviderAddr> = []): ProviderAddr[] {
  const out = new Map<string, ProviderAddr>();
  const add = (p: ProviderAddr | undefined) => {
    if (p) out.set(p.toString(), p);
  };
  for (const c of allConfigs(config)) {
    for (const r of c.module.managedResources.values()) add(r.provider);
    for (const r of c.module.dataResources.values()) add(r.provider);
    for (const r of c.module.ephemeralResources.values()) add(r.provider);
    for (const p of c.module.providerConfigs.values()) add(p.providerType);
  }
  for (const rs of state.allResources()) add(rs.providerConfig?.provider);
  for (const p of functionProviders(config)) add(p);
  for (const p of extra) add(p);
  return [...out.values()];
}

export class ProviderManager {
  private readonly schemas = new Map<string, GetProviderSchemaResponse>();
  /** Instances that answered the schema requests, by provider: for validation before configuration. */
  private readonly unconfigured = new Map<string, Provider>();
  /** Those of them the first configuration of their provider may take (the factory's `reusable`). */
  private readonly idle = new Map<string, Provider>();
  /** Instances started for a configuration instance and waiting for their configuration. */
  private readonly started = new Map<string, Provider>();
  private readonly configured = new Map<string, Provider>();
  private readonly all: Provider[] = [];
  /** Providers the configuration calls functions of that their schemas lack (by provider source). */
  private readonly beyondSchema = new Set<string>();
  /** What those providers' instances answered to GetFunctions (once configured, or once started). */
  private readonly functionLists = new Map<Provider, GetFunctionsResponse>();

  constructor(
    private readonly factory: ProviderFactory,
    private readonly terraformVersion: string,
    private readonly resourceProvider?: ResourceInstanceProvider,
  ) {}

  /**
   * Fetches the schema of every provider given (once each). The instances of those whose
   * functions `functionsOf` calls stay unconfigured, for the calls (provider_functions.ts).
   */
  async loadSchemas(providers: Iterable<ProviderAddr>, functionsOf?: Config): Promise<Diagnostic[]> {
    const diagnostics: Diagnostic[] = [];
    const seen = new Set<string>();
    for (const p of providers) {
      const k = p.toString();
      if (seen.has(k) || this.schemas.has(k)) continue;
      seen.add(k);
      const started = await this.factory(p);
      if (!started.ok) {
        diagnostics.push(...started.diagnostics);
        continue;
      }
      this.all.push(started.provider);
      const resp = await started.provider.getProviderSchema();
      if (resp.diagnostics.some((d) => d.severity === "error")) {
        diagnostics.push({
          severity: "error",
          summary: "Failed to load plugin schemas",
          detail: `Error while loading schemas for plugin components: Failed to obtain provider schema: Could not load the schema for provider ${k}: ${resp.diagnostics.map((d) => d.summary).join("; ")}.`,
        });
        continue;
      }
      this.schemas.set(k, resp);
      this.unconfigured.set(k, started.provider);
      if (started.reusable !== false) this.idle.set(k, started.provider);
    }
    if (functionsOf) {
      for (const p of functionProviders(functionsOf)) {
        this.idle.delete(p.toString());
        this.unconfigured.get(p.toString())?.prepareFunctionCalls?.();
      }
      for (const p of providersWithFunctionsBeyondSchema(functionsOf, (t) => this.schemas.get(t.toString()))) {
        this.beyondSchema.add(p.toString());
        const instance = this.unconfigured.get(p.toString());
        if (instance) await this.listFunctions(instance);
      }
    }
    return diagnostics;
  }

  /** Asks an instance for the functions it offers (GetFunctions), for the calls its schema lacks. */
  private async listFunctions(instance: Provider): Promise<void> {
    this.functionLists.set(instance, await instance.getFunctions());
  }

  /** An instance's GetFunctions answer, when the configuration needed one. */
  functionsOf(instance: Provider): GetFunctionsResponse | undefined {
    return this.functionLists.get(instance);
  }

  /** The unconfigured instance a provider's functions are called on (provider_functions.ts). */
  functionInstance(p: ProviderAddr): Provider | undefined {
    return this.unconfigured.get(p.toString());
  }

  /** Every schema loaded, as `plans` looks them up (by provider source string). */
  schemaSets(): Map<string, ProviderSchemaSet> {
    const out = new Map<string, ProviderSchemaSet>();
    for (const [k, s] of this.schemas) out.set(k, { provider: s.provider, resourceTypes: s.resourceTypes, dataSources: s.dataSources });
    return out;
  }

  providerSchema(p: ProviderAddr): GetProviderSchemaResponse | undefined {
    return this.schemas.get(p.toString());
  }

  resourceTypeSchema(p: ProviderAddr, mode: ResourceMode, type: string): Schema | undefined {
    const s = this.schemas.get(p.toString());
    if (!s) return undefined;
    return mode === "data" ? s.dataSources.get(type) : mode === "ephemeral" ? s.ephemeralResources.get(type) : s.resourceTypes.get(type);
  }

  /**
   * The unconfigured instance that answered the schema request, for the calls a provider takes
   * before ConfigureProvider (ValidateProviderConfig, ValidateResourceConfig: `validate`).
   */
  unconfiguredInstance(p: ProviderAddr): Provider | undefined {
    return this.unconfigured.get(p.toString());
  }

  /**
   * Starts the instance for one configuration instance. `configure` false: there is nothing
   * more to do — it failed (diagnostics), or it is preconfigured and ready for use.
   */
  async start(addr: AbsProviderConfig, key: InstanceKey): Promise<{ configure: boolean; diagnostics: Diagnostic[] }> {
    const k = addr.provider.toString();
    const idle = this.idle.get(k);
    if (idle) {
      this.idle.delete(k);
      this.started.set(addr.instanceString(key), idle);
      return { configure: true, diagnostics: [] };
    }
    const r = await this.factory(addr.provider, { config: addr, key });
    if (!r.ok) return { configure: false, diagnostics: r.diagnostics };
    this.all.push(r.provider);
    if (r.preconfigured) {
      this.configured.set(addr.instanceString(key), r.provider);
      return { configure: false, diagnostics: [] };
    }
    this.started.set(addr.instanceString(key), r.provider);
    return { configure: true, diagnostics: [] };
  }

  /** Validates and configures one provider instance (ValidateProviderConfig + ConfigureProvider), started first if need be. */
  async configure(addr: AbsProviderConfig, key: InstanceKey, config: Value, body?: ConfigBody): Promise<Diagnostic[]> {
    const ik = addr.instanceString(key);
    if (!this.started.has(ik)) {
      const s = await this.start(addr, key);
      if (!s.configure) return s.diagnostics;
    }
    const p = this.started.get(ik);
    if (!p) return [];
    this.started.delete(ik);
    const diagnostics: Diagnostic[] = [];
    const v = await p.validateProviderConfig({ config });
    diagnostics.push(...providerDiagnosticsInBody(v.diagnostics, body ?? EMPTY_CONFIG_BODY, ik));
    if (diagnostics.some((d) => d.severity === "error")) return diagnostics;
    const c = await p.configureProvider({ terraformVersion: this.terraformVersion, config: v.preparedConfig, clientCapabilities: DEFAULT_CLIENT_CAPABILITIES });
    diagnostics.push(...providerDiagnosticsInBody(c.diagnostics, body ?? EMPTY_CONFIG_BODY, ik));
    this.configured.set(addr.instanceString(key), p);
    if (this.beyondSchema.has(addr.provider.toString()) && !diagnostics.some((d) => d.severity === "error")) await this.listFunctions(p);
    return diagnostics;
  }

  instance(addr: AbsProviderConfig, key: InstanceKey): Provider | undefined {
    return this.configured.get(addr.instanceString(key));
  }

  /** The provider a resource instance's calls go to: its configured instance, as the resource hook sees it. */
  forResource(resource: AbsResourceInstance, addr: AbsProviderConfig, key: InstanceKey): Provider | undefined {
    const provider = this.instance(addr, key);
    const schema = this.schemas.get(addr.provider.toString());
    if (!provider || !schema || !this.resourceProvider) return provider;
    return this.resourceProvider({ resource, config: addr, key, provider, schema });
  }

  /** Closes every instance started in this run. */
  async close(): Promise<void> {
    const all = this.all.splice(0);
    this.unconfigured.clear();
    this.idle.clear();
    this.started.clear();
    this.configured.clear();
    this.functionLists.clear();
    await Promise.all(all.map((p) => p.close().catch(() => undefined)));
  }
}
