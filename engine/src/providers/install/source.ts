// Where provider packages come from (OpenTofu's getproviders.Source and MultiSource): the source
// interface, package metadata, the errors sources report, and the include/exclude patterns of
// the CLI configuration. Pure: sources that touch the file system live in fsmirror.ts.
import { DefaultProviderRegistryHost, hostnameForComparison, parseProviderPart, type Provider as ProviderT } from "../../addrs/index.js";
import { compareVersions, sortVersions, versionsEqual, versionString, type Version } from "../../versions/index.js";

export interface Platform {
  readonly os: string;
  readonly arch: string;
}

export function platformString(p: Platform): string {
  return `${p.os}_${p.arch}`;
}

export function parsePlatform(str: string): { ok: true; platform: Platform } | { ok: false; error: string } {
  const parts = str.split("_");
  if (parts.length !== 2) return { ok: false, error: "must be two words separated by an underscore" };
  const [os, arch] = parts as [string, string];
  if (/[ \t\n\r]/.test(os)) return { ok: false, error: "OS portion must not contain whitespace" };
  if (/[ \t\n\r]/.test(arch)) return { ok: false, error: "architecture portion must not contain whitespace" };
  return { ok: true, platform: { os, arch } };
}

/** Where a package's contents can be had. */
export type PackageLocation =
  /** An unpacked package directory (filesystem mirror, or another cache): linked, or copied. */
  | { readonly kind: "localDir"; readonly path: string }
  /** A .zip package on disk: checked against the lock file, then unpacked. */
  | { readonly kind: "localArchive"; readonly path: string }
  /** A provider built into Terrace (TypeScript): nothing to put on disk. */
  | { readonly kind: "bundled"; readonly hashes: readonly string[] };

export function packageLocationString(l: PackageLocation): string {
  return l.kind === "bundled" ? "bundled with Terrace" : l.path;
}

export interface PackageMeta {
  readonly provider: ProviderT;
  readonly version: Version;
  readonly targetPlatform: Platform;
  /** The conventional package file name (`terraform-provider-TYPE_VERSION_OS_ARCH.zip`). */
  readonly filename: string;
  readonly location: PackageLocation;
}

/** Errors sources report; the "does not exist" kinds let a MultiSource try the next source. */
export type SourceError =
  | { readonly kind: "providerNotFound"; readonly provider: ProviderT; readonly sources: readonly string[] }
  | { readonly kind: "registryProviderNotKnown"; readonly provider: ProviderT }
  | { readonly kind: "platformNotSupported"; readonly provider: ProviderT; readonly version: Version; readonly platform: Platform }
  | { readonly kind: "failed"; readonly message: string };

/** The error text OpenTofu's getproviders errors print. */
export function sourceErrorMessage(e: SourceError): string {
  switch (e.kind) {
    case "providerNotFound":
      return `provider ${e.provider.toString()} was not found in any of the search locations`;
    case "registryProviderNotKnown":
      return `provider registry ${e.provider.hostname} does not have a provider named ${e.provider.toString()}`;
    case "platformNotSupported":
      return `provider ${e.provider.toString()} ${versionString(e.version)} is not available for ${platformString(e.platform)}`;
    case "failed":
      return e.message;
    default: {
      const never: never = e;
      throw new Error(`unknown source error ${JSON.stringify(never)}`);
    }
  }
}

export type VersionsResult = { ok: true; versions: Version[]; warnings: string[] } | { ok: false; error: SourceError };
export type MetaResult = { ok: true; meta: PackageMeta } | { ok: false; error: SourceError };

export interface ProviderSource {
  /** The distinct versions available, sorted by increasing precedence. */
  availableVersions(provider: ProviderT): Promise<VersionsResult>;
  packageMeta(provider: ProviderT, version: Version, target: Platform): Promise<MetaResult>;
  /** How this source is named in "searched in" lists. */
  forDisplay(provider: ProviderT): string;
}

// ---- Include / exclude patterns ----

/** `*` stands for any value of that part. */
export const WILDCARD = "*";

/** A provider address whose parts may be WILDCARD. */
export interface ProviderPattern {
  readonly hostname: string;
  readonly namespace: string;
  readonly type: string;
}

function nameOrWildcard(s: string): string | undefined {
  if (s === WILDCARD) return s;
  const r = parseProviderPart(s);
  return r.error === undefined ? r.part : undefined;
}

/** getproviders.ParseMultiSourceMatchingPatterns, with its error texts. */
export function parseMatchingPatterns(strs: readonly string[]): { ok: true; patterns: ProviderPattern[] } | { ok: false; error: string } {
  const patterns: ProviderPattern[] = [];
  for (const str of strs) {
    let parts = str.split("/");
    if (parts.length < 2 || parts.length > 3) {
      return { ok: false, error: `invalid provider matching pattern ${JSON.stringify(str)}: must have either two or three slash-separated segments` };
    }
    let host = DefaultProviderRegistryHost;
    if (parts.length === 3) {
      const given = parts[0] as string;
      if (given === WILDCARD) host = WILDCARD;
      else {
        const h = hostnameForComparison(given);
        if (h.error !== undefined) return { ok: false, error: `invalid hostname in provider matching pattern ${JSON.stringify(str)}: ${h.error}` };
        host = h.hostname;
      }
      parts = parts.slice(1);
    }
    const type = nameOrWildcard(parts[1] as string);
    if (type === undefined) {
      return {
        ok: false,
        error: `invalid provider type ${JSON.stringify(parts[1])} in provider matching pattern ${JSON.stringify(str)}: must either be the wildcard * or a provider type name`,
      };
    }
    const namespace = nameOrWildcard(parts[0] as string);
    if (namespace === undefined) {
      // OpenTofu names the type part here, not the namespace; kept so the message matches.
      return {
        ok: false,
        error: `invalid registry namespace ${JSON.stringify(parts[1])} in provider matching pattern ${JSON.stringify(str)}: must either be the wildcard * or a literal namespace`,
      };
    }
    if (host === WILDCARD && (namespace !== WILDCARD || type !== WILDCARD)) {
      return { ok: false, error: `invalid provider matching pattern ${JSON.stringify(str)}: hostname can be a wildcard only if both namespace and provider type are also wildcards` };
    }
    if (namespace === WILDCARD && type !== WILDCARD) {
      return { ok: false, error: `invalid provider matching pattern ${JSON.stringify(str)}: namespace can be a wildcard only if the provider type is also a wildcard` };
    }
    patterns.push({ hostname: host, namespace, type });
  }
  return { ok: true, patterns };
}

export function patternsMatch(patterns: readonly ProviderPattern[], addr: ProviderT): boolean {
  return patterns.some(
    (p) => (p.hostname === WILDCARD || p.hostname === addr.hostname) && (p.namespace === WILDCARD || p.namespace === addr.namespace) && (p.type === WILDCARD || p.type === addr.type),
  );
}

/** A source and the providers it may be asked about. */
export interface SourceSelector {
  readonly source: ProviderSource;
  /** None means every provider. */
  readonly include: readonly ProviderPattern[];
  /** Exclusions win over inclusions. */
  readonly exclude: readonly ProviderPattern[];
}

export function selectorCanHandle(s: SourceSelector, addr: ProviderT): boolean {
  if (patternsMatch(s.exclude, addr)) return false;
  return s.include.length === 0 || patternsMatch(s.include, addr);
}

/**
 * Several sources as one (getproviders.MultiSource): available versions are the union over the
 * sources that may handle the provider; a package comes from the first source that has it.
 */
export class MultiSource implements ProviderSource {
  constructor(readonly selectors: readonly SourceSelector[]) {}

  async availableVersions(provider: ProviderT): Promise<VersionsResult> {
    const found: Version[] = [];
    const warnings: string[] = [];
    let registryError = false;
    for (const s of this.selectors) {
      if (!selectorCanHandle(s, provider)) continue;
      const r = await s.source.availableVersions(provider);
      if (!r.ok) {
        if (r.error.kind === "registryProviderNotKnown") {
          registryError = true;
          continue;
        }
        if (r.error.kind === "providerNotFound") continue;
        return r;
      }
      for (const v of r.versions) if (!found.some((f) => versionsEqual(f, v))) found.push(v);
      warnings.push(...r.warnings);
    }
    if (found.length === 0) {
      return {
        ok: false,
        error: registryError ? { kind: "registryProviderNotKnown", provider } : { kind: "providerNotFound", provider, sources: this.sourcesForProvider(provider) },
      };
    }
    return { ok: true, versions: sortVersions(found), warnings };
  }

  async packageMeta(provider: ProviderT, version: Version, target: Platform): Promise<MetaResult> {
    if (this.selectors.length === 0) return { ok: false, error: { kind: "providerNotFound", provider, sources: [] } };
    for (const s of this.selectors) {
      if (!selectorCanHandle(s, provider)) continue;
      const r = await s.source.packageMeta(provider, version, target);
      if (r.ok) return r;
      const k = r.error.kind;
      if (k === "providerNotFound" || k === "registryProviderNotKnown" || k === "platformNotSupported") continue;
      return r;
    }
    return { ok: false, error: { kind: "platformNotSupported", provider, version, platform: target } };
  }

  forDisplay(provider: ProviderT): string {
    return this.sourcesForProvider(provider).join("\n");
  }

  sourcesForProvider(provider: ProviderT): string[] {
    return this.selectors.filter((s) => selectorCanHandle(s, provider)).map((s) => s.source.forDisplay(provider));
  }
}

/**
 * The "direct" installation method (the provider's origin registry). Terrace machines have no
 * network for provider downloads, so this source never finds anything; it is still listed, so
 * the not-found error says plainly that the registry was not contacted and why.
 */
export class OfflineRegistrySource implements ProviderSource {
  async availableVersions(provider: ProviderT): Promise<VersionsResult> {
    return { ok: false, error: { kind: "providerNotFound", provider, sources: [this.forDisplay(provider)] } };
  }

  async packageMeta(provider: ProviderT, version: Version, target: Platform): Promise<MetaResult> {
    return { ok: false, error: { kind: "platformNotSupported", provider, version, platform: target } };
  }

  forDisplay(provider: ProviderT): string {
    return `the provider registry at ${provider.hostname} (not contacted: Terrace has no network access for provider downloads; put the provider in a filesystem mirror)`;
  }
}

/** A provider implemented inside Terrace, offered to the installer by the engine. */
export interface BundledProvider {
  readonly provider: ProviderT;
  readonly version: Version;
  /**
   * Hashes to record in the lock file for it, if any. A TypeScript provider has no package, so
   * usually none; the lock still records its version.
   */
  readonly hashes?: readonly string[];
}

/**
 * The providers the engine registers (its TypeScript providers), tried before any mirror so a
 * bundled implementation wins when its version is acceptable. Platform-independent.
 */
export class BundledProviderSource implements ProviderSource {
  private readonly byAddr = new Map<string, BundledProvider[]>();

  constructor(providers: readonly BundledProvider[] = []) {
    for (const p of providers) this.register(p);
  }

  register(p: BundledProvider): void {
    const key = p.provider.toString();
    const list = this.byAddr.get(key) ?? [];
    if (!list.some((q) => versionsEqual(q.version, p.version))) list.push(p);
    this.byAddr.set(key, list);
  }

  registered(): BundledProvider[] {
    return [...this.byAddr.values()].flat();
  }

  async availableVersions(provider: ProviderT): Promise<VersionsResult> {
    const list = this.byAddr.get(provider.toString());
    if (!list) return { ok: false, error: { kind: "providerNotFound", provider, sources: [this.forDisplay(provider)] } };
    return { ok: true, versions: sortVersions(list.map((p) => p.version)), warnings: [] };
  }

  async packageMeta(provider: ProviderT, version: Version, target: Platform): Promise<MetaResult> {
    const p = this.byAddr.get(provider.toString())?.find((q) => versionsEqual(q.version, version));
    if (!p) return { ok: false, error: { kind: "platformNotSupported", provider, version, platform: target } };
    return {
      ok: true,
      meta: {
        provider,
        version,
        targetPlatform: target,
        filename: `terraform-provider-${provider.type}_${versionString(version)}_${platformString(target)}.zip`,
        location: { kind: "bundled", hashes: p.hashes ?? [] },
      },
    };
  }

  forDisplay(_provider?: ProviderT): string {
    return "providers bundled with Terrace";
  }
}

/** Package metadata in OpenTofu's deterministic order: provider, platform, then version. */
export function comparePackageMeta(a: PackageMeta, b: PackageMeta): number {
  const pa = a.provider.toString();
  const pb = b.provider.toString();
  if (pa !== pb) return a.provider.lessThan(b.provider) ? -1 : 1;
  if (a.targetPlatform.os !== b.targetPlatform.os) return a.targetPlatform.os < b.targetPlatform.os ? -1 : 1;
  if (a.targetPlatform.arch !== b.targetPlatform.arch) return a.targetPlatform.arch < b.targetPlatform.arch ? -1 : 1;
  return compareVersions(a.version, b.version);
}
