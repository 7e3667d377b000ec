// Which provider answers in a run (OpenTofu's NodeApplyableProvider for IsMocked configurations
// and NodeAbstractResourceInstance.getProvider): core asks the run's factory for an instance per
// provider configuration instance, and a configuration the test replaced with `mock_provider`
// gets an in-process mocked one (preconfigured: its block is not evaluated), while every other
// configuration — another alias of the same provider too — gets a real one. Core then asks the
// resource hook for each resource instance: an overridden resource (the run's or file's
// `override_resource`/`override_data`, else its mocked provider's own) is answered in process
// with the override values, on top of whatever instance it resolved to.
import { AbsProviderConfig, RootModule, type Provider as ProviderAddr } from "../addrs/index.js";
import type { Config } from "../configs/index.js";
import type { ProviderFactory, ResourceInstanceProvider } from "../core/index.js";
import type { Diagnostic } from "../hcl/index.js";
import type { GetProviderSchemaResponse } from "../providers/index.js";
import type { Value } from "../values/index.js";
import type { TestProvider as TestProviderBlock } from "./file.js";
import { TestProvider } from "./mock.js";
import { providerResourceOverrides, type ResourceOverrides } from "./override.js";

/** Schemas fetched once per provider for the whole command (mocked providers need them). */
export type SchemaSource = (p: ProviderAddr) => Promise<{ schema?: GetProviderSchemaResponse; diagnostics: Diagnostic[] }>;

export interface RunProviderHooks {
  readonly factory: ProviderFactory;
  readonly resourceProvider: ResourceInstanceProvider;
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
export function runProviderHooks(config: Config, providers: ReadonlyMap<string, TestProviderBlock>, overrides: ResourceOverrides, base: ProviderFactory, schemas: SchemaSource): RunProviderHooks {
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

  const factory: ProviderFactory = async (type, instance) => {
    const mock = instance ? mocked.get(instance.config.toString()) : undefined;
    // A start for the schema only must not serve a real configuration when some are mocked.
    if (instance ? !mock : !mockedTypes.has(type.toString())) return base(type, instance);
    const s = await schemas(type);
    if (!s.schema) return { ok: false, diagnostics: s.diagnostics };
    const provider = new TestProvider({ internal: undefined, schema: s.schema, values: (mode, t) => mock?.defaults[mode].get(t) });
    return instance ? { ok: true, provider, preconfigured: true } : { ok: true, provider, reusable: false };
  };

  const resourceProvider: ResourceInstanceProvider = ({ resource, config: providerConfig, provider, schema }) => {
    const target = resource.configResource().toString();
    // Override values replace the mock defaults whole, and the run's or file's replace the mocked provider's.
    const values = overrides.get(target) ?? mocked.get(providerConfig.toString())?.overrides.get(target);
    if (!values) return provider;
    return new TestProvider({ internal: provider, schema, values: () => values });
  };

  return { factory, resourceProvider };
}
