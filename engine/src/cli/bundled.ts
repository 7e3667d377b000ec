// The providers Terrace ships (engine/src/providers-bundled), as the installer registers them and
// as `terrace providers bundled` lists them. They are found under the default registry host, so
// a configuration that says `source = "hashicorp/random"` gets the bundled one without a mirror.
import { DefaultProviderRegistryHost, newProvider, type Provider } from "../addrs/index.js";
import type { BundledProvider as InstallableProvider } from "../providers/index.js";
import { BUNDLED_PROVIDERS, bundledProviderExecutable } from "../providers-bundled/index.js";
import { parseVersion } from "../versions/index.js";

export interface BundledProviderInfo {
  readonly name: string;
  readonly source: string;
  readonly version: string;
  readonly executable: string;
  readonly provider: Provider;
}

export function bundledProviders(): BundledProviderInfo[] {
  return BUNDLED_PROVIDERS.map((p) => {
    const [namespace, type] = p.source.split("/") as [string, string];
    const provider = newProvider(DefaultProviderRegistryHost, namespace, type);
    return { name: p.name, source: provider.toString(), version: p.version, executable: bundledProviderExecutable(p.name), provider };
  });
}

/** The bundled providers in the installer's terms (a version, no package hashes). */
export function installableBundledProviders(): InstallableProvider[] {
  return bundledProviders().map((p) => {
    const v = parseVersion(p.version);
    if (!v.ok) throw new Error(`bundled provider ${p.name} has an invalid version ${p.version}`);
    return { provider: p.provider, version: v.value };
  });
}
