// Provider instances for one run (OpenTofu's contextPlugins plus the provider part of its
// BuiltinEvalContext): schemas are fetched once per provider, each provider configuration (each
// instance key, for configurations with `for_each`) gets its own configured instance, every
// instance lives for the whole run, and all are closed at the end.
import type { AbsProviderConfig, InstanceKey, Provider as ProviderAddr, ResourceMode } from "../addrs/index.js";
import { allConfigs, type Config } from "../configs/index.js";
import type { Diagnostic } from "../hcl/index.js";
import { DEFAULT_CLIENT_CAPABILITIES, type GetProviderSchemaResponse, type Provider, type Schema } from "../providers/index.js";
import type { ProviderSchemaSet } from "../plans/index.js";
import type { State } from "../states/index.js";
import type { Value } from "../values/index.js";
import { providerDiagnostics } from "./diags.js";

export type ProviderFactoryResult = { ok: true; provider: Provider } | { ok: false; diagnostics: Diagnostic[] };

/** Starts a fresh, unconfigured instance of a provider (builtin in process, or a plugin). */
export type ProviderFactory = (provider: ProviderAddr) => Promise<ProviderFactoryResult>;

/** Every provider the configuration and state (and `extra`, e.g. a plan's changes) need, for their schemas. */
export function providersNeeded(config: Config, state: State, extra: Iterable<ProviderAddr> = []): ProviderAddr[] {
  const out = new Map<string, ProviderAddr>();
  const add = (p: ProviderAddr | undefined) => {
    if (p) out.set(p.toString(), p);
  };
  for (const c of allConfigs(config)) {
    for (const r of c.module.managedResources.values()) add(r.provider);
    for (const r of c.module.dataResources.values()) add(r.provider);
    for (const p of c.module.providerConfigs.values()) add(p.providerType);
  }
  for (const rs of state.allResources()) add(rs.providerConfig?.provider);
  for (const p of extra) add(p);
  return [...out.values()];
}

export class ProviderManager {
  private readonly schemas = new Map<string, GetProviderSchemaResponse>();
  /** Unconfigured instances left over from fetching schemas, reused by the first configuration. */
  private readonly idle = new Map<string, Provider>();
  private readonly configured = new Map<string, Provider>();
  private readonly all: Provider[] = [];

  constructor(
    private readonly factory: ProviderFactory,
    private readonly terraformVersion: string,
  ) {}

  /** Fetches the schema of every provider given (once each). */
  async loadSchemas(providers: Iterable<ProviderAddr>): Promise<Diagnostic[]> {
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
      this.idle.set(k, started.provider);
    }
    return diagnostics;
  }

  /** Every schema loaded, as `plans` looks them up (by provider source string). */
  schemaSets(): Map<string, ProviderSchemaSet> {
    const out = new Map<string, ProviderSchemaSet>();
    for (const [k, s] of this.schemas) out.set(k, { resourceTypes: s.resourceTypes, dataSources: s.dataSources });
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
    return this.idle.get(p.toString());
  }

  /** A running instance for the configuration (not yet configured). */
  private async start(addr: AbsProviderConfig): Promise<ProviderFactoryResult> {
    const k = addr.provider.toString();
    const idle = this.idle.get(k);
    if (idle) {
      this.idle.delete(k);
      return { ok: true, provider: idle };
    }
    const r = await this.factory(addr.provider);
    if (r.ok) this.all.push(r.provider);
    return r;
  }

  /** Validates and configures one provider instance (ValidateProviderConfig + ConfigureProvider). */
  async configure(addr: AbsProviderConfig, key: InstanceKey, config: Value): Promise<Diagnostic[]> {
    const started = await this.start(addr);
    if (!started.ok) return started.diagnostics;
    const p = started.provider;
    const diagnostics: Diagnostic[] = [];
    const v = await p.validateProviderConfig({ config });
    diagnostics.push(...providerDiagnostics(v.diagnostics, undefined));
    if (diagnostics.some((d) => d.severity === "error")) return diagnostics;
    const c = await p.configureProvider({ terraformVersion: this.terraformVersion, config: v.preparedConfig, clientCapabilities: DEFAULT_CLIENT_CAPABILITIES });
    diagnostics.push(...providerDiagnostics(c.diagnostics, undefined));
    this.configured.set(addr.instanceString(key), p);
    return diagnostics;
  }

  instance(addr: AbsProviderConfig, key: InstanceKey): Provider | undefined {
    return this.configured.get(addr.instanceString(key));
  }

  /** Closes every instance started in this run. */
  async close(): Promise<void> {
    const all = this.all.splice(0);
    this.idle.clear();
    this.configured.clear();
    await Promise.all(all.map((p) => p.close().catch(() => undefined)));
  }
}
