// Which provider answers in a run (OpenTofu's NodeApplyableProvider for IsMocked configurations
// and NodeAbstractResourceInstance.getProvider): core asks the run's factory for an instance per
// provider configuration instance, and a configuration the test replaced with `mock_provider`
// gets an in-process mocked one (preconfigured: its block is not evaluated) around a real,
// never configured instance that answers validation and provider functions, while every other
// configuration — another alias of the same provider too — gets a real one. Core then asks the
// resource hook for each resource instance: an overridden resource (the run's or file's
// `override_resource`/`override_data`, else its mocked provider's own) is answered in process
// with the override values, on top of whatever instance it resolved to.
import { AbsProviderConfig, RootModule, type Provider as ProviderAddr } from "../addrs/index.js";
import type { Config } from "../configs/index.js";
import type { ProviderFactory, ProviderFactoryResult, ResourceInstanceProvider } from "../core/index.js";
import type { Diagnostic } from "../hcl/index.js";
import type { GetProviderSchemaResponse, Provider } from "../providers/index.js";
import type { Value } from "../values/index.js";
import type { TestProvider as TestProviderBlock } from "./file.js";
import { TestProvider } from "./mock.js";
import { providerResourceOverrides, type ResourceOverrides } from "./override.js";

/**
 * One real, never configured instance per provider for the whole command, with its schema: a
 * mocked configuration answers validation, state upgrades and provider functions through it
 * (tofu starts a fresh unconfigured instance for each; none of those calls depends on a
 * configuration, so one serves every run). `close` stops them at the end of the command.
 */
export class UnconfiguredProviders {
  private readonly started = new Map<string, Promise<{ provider?: Provider; schema?: GetProviderSchemaResponse; diagnostics: Diagnostic[] }>>();
  constructor(private readonly factory: ProviderFactory) {}

  get(p: ProviderAddr): Promise<{ provider?: Provider; schema?: GetProviderSchemaResponse; diagnostics: Diagnostic[] }> {
    const k = p.toString();
    let s = this.started.get(k);
    if (!s) {
      s = (async () => {
        const started = await this.factory(p);
        if (!started.ok) return { diagnostics: started.diagnostics };
        const schema = await started.provider.getProviderSchema();
        return { provider: started.provider, schema, diagnostics: [] };
      })();
      this.started.set(k, s);
    }
    return s;
  }

  async close(): Promise<void> {
    const all = [...this.started.values()];
    this.started.clear();
    await Promise.all(all.map(async (s) => (await s).provider?.close().catch(() => undefined)));
  }
}

export interface RunProviderHooks {
  readonly factory: ProviderFactory;
  readonly resourceProvider: ResourceInstanceProvider;
  /**
   * For validating the run's configuration, which asks only unconfigured instances: the
   * command's (tofu starts fresh ones; validation calls do not depend on a configuration).
   */
  readonly validation: ProviderFactory;
}

interface MockedConfig {
  readonly defaults: { managed: Map<string, ReadonlyMap<string, Value>>; data: Map<string, ReadonlyMap<string, Value>> };
  readonly overrides: ResourceOverrides;
}

/**
 * The hooks for one run. `config` has the run's test providers in its root module already
 * (providers.ts); `providers` are those test blocks by `name` / `name.alias`; `overrides` the
 * run's and file's resolved resource overrides.
 */
export function runProviderHooks(
  config: Config,
  providers: ReadonlyMap<string, TestProviderBlock>,
  overrides: ResourceOverrides,
  base: ProviderFactory,
  unconfigured: UnconfiguredProviders,
): RunProviderHooks {
  // Mocked configurations by their AbsProviderConfig: test provider blocks only replace the root
  // module's configurations, which child modules may inherit.
  const mocked = new Map<string, MockedConfig>();
  const mockedTypes = new Set<string>();
  for (const [key, p] of providers) {
    const type = config.module.providerConfigs.get(key)?.providerType;
    if (!p.mock || !type) continue;
    const defaults: MockedConfig["defaults"] = { managed: new Map(), data: new Map() };
    for (const mr of p.mock.mockResources) defaults[mr.mode].set(mr.type, mr.defaults);
    mocked.set(new AbsProviderConfig(RootModule, type, p.alias).toString(), { defaults, overrides: providerResourceOverrides(p.mock.overrideResources) });
    mockedTypes.add(type.toString());
  }

  // The command's unconfigured instance of a provider, for the calls made before configuration
  // (schema, validation); never handed a configuration.
  const shared = async (type: ProviderAddr): Promise<ProviderFactoryResult> => {
    const u = await unconfigured.get(type);
    if (!u.provider || !u.schema) return { ok: false, diagnostics: u.diagnostics };
    return { ok: true, provider: new TestProvider({ internal: u.provider, schema: u.schema, values: () => undefined }), reusable: false };
  };

  const factory: ProviderFactory = async (type, instance) => {
    // A start for the schema only must not serve a real configuration when some are mocked.
    if (!instance) return mockedTypes.has(type.toString()) ? shared(type) : base(type);
    const mock = mocked.get(instance.config.toString());
    if (!mock) return base(type, instance);
    // Answered in process; what needs no configuration goes to the real provider.
    const u = await unconfigured.get(type);
    if (!u.provider || !u.schema) return { ok: false, diagnostics: u.diagnostics };
    const provider = new TestProvider({ internal: u.provider, schema: u.schema, values: (mode, t) => mock.defaults[mode].get(t) });
    return { ok: true, provider, preconfigured: true };
  };

  const resourceProvider: ResourceInstanceProvider = ({ resource, config: providerConfig, provider, schema }) => {
    const target = resource.configResource().toString();
    // Override values replace the mock defaults whole, and the run's or file's replace the mocked provider's.
    const values = overrides.get(target) ?? mocked.get(providerConfig.toString())?.overrides.get(target);
    if (!values) return provider;
    return new TestProvider({ internal: provider, schema, values: () => values });
  };

  const validation: ProviderFactory = async (type, instance) => (instance ? factory(type, instance) : shared(type));

  return { factory, resourceProvider, validation };
}
