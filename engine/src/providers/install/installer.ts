// The provider installer behind `init` (OpenTofu's providercache.Installer): choose a version for
// each required provider (the locked one while it still meets the constraints, else the newest
// that does; `-upgrade` ignores the locks), put its package in `.terraform/providers` (through
// the shared plugin cache when one is set), check it against the locked hashes, and return the
// updated locks. Problems are collected per provider so one run reports all of them.
import type { Diagnostic } from "../../hcl/index.js";
import type { Provider } from "../../addrs/index.js";
import {
  constraintsOnlyUnspecified,
  meetsConstraints,
  newestMatching,
  versionConstraintsString,
  versionsEqual,
  versionString,
  type Version,
  type VersionConstraints,
} from "../../versions/index.js";
import { cachedProviderHash, executableFile, ProviderCacheDir, type CachedProvider } from "./cachedir.js";
import type { DevOverride } from "./cliconfig.js";
import { fileMatchesAnyHash } from "./fshash.js";
import type { Hash } from "./hash.js";
import { lockPreferredHashes, providerIsLockable, type Locks, type ProviderLock } from "./locks.js";
import { platformString, sourceErrorMessage, type PackageMeta, type Platform, type ProviderSource, type SourceError } from "./source.js";

export interface ProviderRequirement {
  readonly provider: Provider;
  /** Empty means any version. */
  readonly constraints: VersionConstraints;
}

export type InstallMode =
  /** Keep locked versions; install what is missing (`init`). */
  | "normal"
  /** Choose again among all versions the constraints allow (`init -upgrade`). */
  | "upgrade";

export interface InstallOptions {
  readonly requirements: readonly ProviderRequirement[];
  readonly locks: Locks;
  readonly mode?: InstallMode;
  readonly source: ProviderSource;
  /** `.terraform/providers`. */
  readonly targetDir: ProviderCacheDir;
  /** plugin_cache_dir, if configured: packages go there first and are linked into targetDir. */
  readonly globalCacheDir?: ProviderCacheDir;
  readonly globalCacheMayBreakLockFile?: boolean;
  /** Type names valid under terraform.io/builtin (default: ["terraform"]). */
  readonly builtInProviderTypes?: readonly string[];
  /** From the CLI configuration: these providers are not installed at all. */
  readonly devOverrides?: ReadonlyMap<string, DevOverride>;
  /** TF_REATTACH_PROVIDERS's providers, already running: not installed either (as Terraform's installer skips them). */
  readonly unmanaged?: { has(address: string): boolean };
  /** The command named in messages ("tofu"). */
  readonly command?: string;
  readonly events?: InstallerEvents;
}

/** Progress callbacks, for the CLI's "- Installing hashicorp/aws v5.0.0..." lines. */
export interface InstallerEvents {
  builtInProviderAvailable?(provider: Provider): void;
  queryPackagesBegin?(provider: Provider, constraints: VersionConstraints, locked: boolean): void;
  queryPackagesSuccess?(provider: Provider, selected: Version): void;
  queryPackagesWarning?(provider: Provider, warnings: readonly string[]): void;
  providerAlreadyInstalled?(provider: Provider, version: Version, inCache: boolean): void;
  fetchPackageBegin?(provider: Provider, version: Version, location: PackageMeta["location"]): void;
  fetchPackageSuccess?(provider: Provider, version: Version, packageDir: string | undefined): void;
  linkFromCacheSuccess?(provider: Provider, version: Version, packageDir: string): void;
}

/** Why one provider could not be installed; `phase` picks the message OpenTofu's init prints. */
export interface ProviderInstallError {
  readonly provider: Provider;
  readonly phase: "builtin" | "query" | "fetch";
  readonly version?: Version;
  readonly message: string;
  readonly sourceError?: SourceError;
}

export interface InstalledProvider {
  readonly provider: Provider;
  readonly version: Version;
  /** Where the package is in targetDir; undefined for a bundled provider. */
  readonly packageDir: string | undefined;
  readonly bundled: boolean;
  readonly alreadyInstalled: boolean;
}

export interface InstallResult {
  /** The updated locks: a copy, the input is not changed. */
  readonly locks: Locks;
  readonly installed: readonly InstalledProvider[];
  /** Keyed by provider address string. */
  readonly errors: ReadonlyMap<string, ProviderInstallError>;
  /** Warnings and errors as OpenTofu's init reports them. */
  readonly diagnostics: Diagnostic[];
}

/** The version a provider would get, or why it cannot get one (no I/O beyond the source). */
async function selectVersion(
  provider: Provider,
  acceptable: { constraints: VersionConstraints; locked?: Version },
  req: VersionConstraints,
  source: ProviderSource,
  events: InstallerEvents | undefined,
): Promise<{ version: Version } | { error: ProviderInstallError }> {
  events?.queryPackagesBegin?.(provider, req, acceptable.locked !== undefined);
  if (acceptable.locked === undefined && constraintsOnlyUnspecified(acceptable.constraints)) {
    const tip =
      "If the version 0.0.0 is intended to represent a non-published provider, consider using dev_overrides - https://opentofu.org/docs/cli/config/config-file/#development-overrides-for-provider-developers";
    return { error: { provider, phase: "query", message: `0.0.0 is not a valid provider version. \n${tip}` } };
  }
  const available = await source.availableVersions(provider);
  if (!available.ok) return { error: { provider, phase: "query", message: sourceErrorMessage(available.error), sourceError: available.error } };
  if (available.warnings.length > 0) events?.queryPackagesWarning?.(provider, available.warnings);
  let chosen: Version | undefined;
  if (acceptable.locked !== undefined) {
    const locked = acceptable.locked;
    chosen = available.versions.find((v) => versionsEqual(v, locked));
  } else chosen = newestMatching(available.versions, acceptable.constraints);
  if (chosen === undefined) {
    const message =
      acceptable.locked !== undefined
        ? `the previously-selected version ${versionString(acceptable.locked)} is no longer available`
        : `no available releases match the given constraints ${versionConstraintsString(req)}`;
    return { error: { provider, phase: "query", message } };
  }
  events?.queryPackagesSuccess?.(provider, chosen);
  return { version: chosen };
}

function sameLockVersion(lock: ProviderLock | undefined, version: Version): lock is ProviderLock {
  return lock !== undefined && versionsEqual(lock.version, version);
}

async function installedMatches(dir: ProviderCacheDir, provider: Provider, version: Version, preferred: readonly Hash[]): Promise<CachedProvider | undefined> {
  const installed = await dir.providerVersion(provider, version);
  if (!installed || preferred.length === 0) return undefined;
  const m = await fileMatchesAnyHash(installed.packageDir, preferred);
  return m.ok && m.matches ? installed : undefined;
}

/**
 * Installs one selected version into `installTo`, returning the hashes to lock. Mirrors
 * OpenTofu's ensureProviderVersionInDirectory.
 */
async function installInto(
  o: InstallOptions,
  installTo: ProviderCacheDir,
  lock: ProviderLock | undefined,
  provider: Provider,
  version: Version,
): Promise<{ hashes: Hash[]; meta?: PackageMeta; already: boolean } | { error: ProviderInstallError }> {
  const preferred = sameLockVersion(lock, version) ? lockPreferredHashes(lock) : [];
  const isGlobal = installTo === o.globalCacheDir;
  if (await installedMatches(installTo, provider, version, preferred)) {
    o.events?.providerAlreadyInstalled?.(provider, version, isGlobal);
    return { hashes: [...(lock?.hashes ?? [])], already: true };
  }
  const fetchErr = (message: string, sourceError?: SourceError) => ({ error: { provider, phase: "fetch" as const, version, message, ...(sourceError ? { sourceError } : {}) } });
  const platform = installTo.targetPlatform;
  const meta = await o.source.packageMeta(provider, version, platform);
  if (!meta.ok) return fetchErr(sourceErrorMessage(meta.error), meta.error);
  o.events?.fetchPackageBegin?.(provider, version, meta.meta.location);

  if (meta.meta.location.kind === "bundled") {
    // Nothing goes on disk; the lock keeps what it had for this version plus the bundle's hashes.
    return { hashes: [...meta.meta.location.hashes, ...(sameLockVersion(lock, version) ? lock.hashes : [])], meta: meta.meta, already: false };
  }
  // With the plugin cache allowed to break the lock file, an unlocked cache entry is reused as is.
  if (isGlobal && o.globalCacheMayBreakLockFile && preferred.length === 0 && (await installTo.providerVersion(provider, version))) {
    o.events?.providerAlreadyInstalled?.(provider, version, true);
  } else {
    const r = await installTo.installPackage(meta.meta, preferred);
    if (!r.ok) return fetchErr(r.error);
  }
  const installed = await installTo.providerVersion(provider, version);
  if (!installed) return fetchErr(`after installing ${provider.toString()} it is still not detected in ${installTo.baseDir}; this is a bug in OpenTofu`);
  const exe = await executableFile(installed);
  if (!exe.ok) return fetchErr(`provider binary not found: ${exe.error}`);
  const h = await cachedProviderHash(installed);
  if (!h.ok) return fetchErr(`after installing ${provider.toString()}, failed to compute a checksum for it: ${h.error}`);
  // Keep the hashes already locked for this version (they may cover other platforms) and add ours.
  const prior = sameLockVersion(lock, version) ? preferred : [];
  return { hashes: [h.hash, ...prior], meta: meta.meta, already: false };
}

/** EnsureProviderVersions: the whole of `init`'s provider step. */
export async function ensureProviderVersions(o: InstallOptions): Promise<InstallResult> {
  const locks = o.locks.deepCopy();
  const mode = o.mode ?? "normal";
  const builtIns = o.builtInProviderTypes ?? ["terraform"];
  const errors = new Map<string, ProviderInstallError>();
  const installed: InstalledProvider[] = [];
  const diagnostics: Diagnostic[] = [];
  const reqs = new Map<string, ProviderRequirement>();
  for (const r of o.requirements) {
    const prev = reqs.get(r.provider.toString());
    reqs.set(r.provider.toString(), prev ? { provider: r.provider, constraints: [...prev.constraints, ...r.constraints] } : r);
  }

  const overrides = o.devOverrides ?? new Map<string, DevOverride>();
  if (overrides.size > 0) diagnostics.push(devOverridesInitWarning(overrides, o.command ?? "tofu"));

  // Step 1: what might need installing, and which versions are acceptable.
  const mightNeed: { req: ProviderRequirement; constraints: VersionConstraints; locked?: Version }[] = [];
  for (const req of [...reqs.values()].sort((a, b) => (a.provider.lessThan(b.provider) ? -1 : 1))) {
    const p = req.provider;
    if (p.isBuiltIn()) {
      // Built into the executable: nothing to install, but the name must exist and take no version.
      let message: string | undefined;
      if (!builtIns.includes(p.type)) message = `this OpenTofu release has no built-in provider named ${JSON.stringify(p.type)}`;
      else if (req.constraints.length > 0) message = "built-in providers do not support explicit version constraints";
      if (message) errors.set(p.toString(), { provider: p, phase: "builtin", message });
      else o.events?.builtInProviderAvailable?.(p);
      continue;
    }
    if (overrides.has(p.toString()) || o.unmanaged?.has(p.toString())) {
      // A development override supplies the provider from a directory, and an unmanaged provider
      // is running already: nothing to install or lock.
      locks.setProviderOverridden(p);
      continue;
    }
    const lock = locks.provider(p);
    if (mode !== "upgrade" && lock) {
      if (!meetsConstraints(lock.version, req.constraints)) {
        errors.set(p.toString(), {
          provider: p,
          phase: "query",
          message: `locked provider ${p.toString()} ${versionString(lock.version)} does not match configured version constraint ${versionConstraintsString(req.constraints)}; must use ${o.command ?? "tofu"} init -upgrade to allow selection of new versions`,
        });
        continue;
      }
      mightNeed.push({ req, constraints: req.constraints, locked: lock.version });
    } else mightNeed.push({ req, constraints: req.constraints });
  }

  // Step 2: choose versions. Step 3: install them.
  for (const n of mightNeed) {
    const p = n.req.provider;
    const sel = await selectVersion(p, n, n.req.constraints, o.source, o.events);
    if ("error" in sel) {
      errors.set(p.toString(), sel.error);
      continue;
    }
    const version = sel.version;
    const lock = locks.provider(p);

    // Already in .terraform/providers and matching the lock: nothing to do but refresh the lock.
    const preferred = sameLockVersion(lock, version) ? lockPreferredHashes(lock) : [];
    const existing = await installedMatches(o.targetDir, p, version, preferred);
    if (existing && lock) {
      o.events?.providerAlreadyInstalled?.(p, version, false);
      locks.setProvider(p, version, n.req.constraints, lock.hashes);
      installed.push({ provider: p, version, packageDir: existing.packageDir, bundled: false, alreadyInstalled: true });
      continue;
    }

    const installTo = o.globalCacheDir ?? o.targetDir;
    const r = await installInto(o, installTo, lock, p, version);
    if ("error" in r) {
      errors.set(p.toString(), r.error);
      continue;
    }
    const bundled = r.meta?.location.kind === "bundled";
    let packageDir: string | undefined;
    if (!bundled) {
      if (o.globalCacheDir) {
        const inCache = await o.globalCacheDir.providerVersion(p, version);
        const linked = inCache ? await o.targetDir.linkFromOtherCache(inCache) : { ok: false as const, error: `after installing ${p.toString()} it is still not detected in ${o.globalCacheDir.baseDir}; this is a bug in OpenTofu` };
        if (!linked.ok) {
          errors.set(p.toString(), { provider: p, phase: "fetch", version, message: linked.error });
          continue;
        }
        o.events?.linkFromCacheSuccess?.(p, version, o.targetDir.packageDirFor(p, version));
      }
      packageDir = o.targetDir.packageDirFor(p, version);
    }
    o.events?.fetchPackageSuccess?.(p, version, packageDir);
    // A bundled provider is locked even without hashes, so its selection stays stable.
    if (r.hashes.length > 0 || bundled) locks.setProvider(p, version, n.req.constraints, r.hashes);
    installed.push({ provider: p, version, packageDir, bundled, alreadyInstalled: r.already });
  }

  // Locks for providers the configuration no longer needs would make the directory inconsistent.
  for (const l of locks.allProviders()) {
    if (!reqs.has(l.provider.toString()) && providerIsLockable(l.provider)) locks.removeProvider(l.provider);
  }

  for (const e of [...errors.values()].sort((a, b) => (a.provider.lessThan(b.provider) ? -1 : 1))) diagnostics.push(installErrorDiagnostic(e, o));
  return { locks, installed, errors, diagnostics };
}

/** The warning `init` gives when dev_overrides are set (the providers are skipped). */
export function devOverridesInitWarning(overrides: ReadonlyMap<string, DevOverride>, command = "tofu"): Diagnostic {
  const lines = [...overrides.values()]
    .sort((a, b) => (a.provider.lessThan(b.provider) ? -1 : 1))
    .map((o) => ` - ${o.provider.forDisplay()} in ${o.dir}\n`)
    .join("");
  return {
    severity: "warning",
    summary: "Provider development overrides are in effect",
    detail: `The following provider development overrides are set in the CLI configuration:\n${lines}\nSkip ${command} init when using provider development overrides. It is not necessary and may error unexpectedly.`,
  };
}

/** The warning other commands give when dev_overrides are set. */
export function devOverridesWarning(overrides: ReadonlyMap<string, DevOverride>): Diagnostic {
  const lines = [...overrides.values()]
    .sort((a, b) => (a.provider.lessThan(b.provider) ? -1 : 1))
    .map((o) => ` - ${o.provider.forDisplay()} in ${o.dir}\n`)
    .join("");
  return {
    severity: "warning",
    summary: "Provider development overrides are in effect",
    detail: `The following provider development overrides are set in the CLI configuration:\n${lines}\nThe behavior may therefore not match any released version of the provider and applying changes may cause the state to become incompatible with published releases.`,
  };
}

/** One installer error as the diagnostic OpenTofu's init prints for it. */
export function installErrorDiagnostic(e: ProviderInstallError, o: { command?: string; targetPlatform?: Platform } = {}): Diagnostic {
  const name = e.provider.forDisplay();
  switch (e.phase) {
    case "builtin":
      return { severity: "error", summary: "Invalid dependency on built-in provider", detail: `Cannot use ${name}: ${e.message}.` };
    case "query": {
      if (e.sourceError?.kind === "providerNotFound") {
        const sources = e.sourceError.sources.map((s) => `  - ${s}`).join("\n");
        return {
          severity: "error",
          summary: "Failed to query available provider packages",
          detail: `Could not retrieve the list of available versions for provider ${name}: ${e.message}\n\n${sources}`,
        };
      }
      return {
        severity: "error",
        summary: "Failed to query available provider packages",
        detail: `Could not retrieve the list of available versions for provider ${name}: ${e.message}`,
      };
    }
    case "fetch": {
      const v = e.version ? versionString(e.version) : "";
      if (e.sourceError?.kind === "platformNotSupported") {
        return {
          severity: "error",
          summary: "Incompatible provider version",
          detail: `Provider ${name} v${v} does not have a package available for your current platform, ${platformString(e.sourceError.platform)}.\n\nProvider releases are separate from OpenTofu CLI releases, so not all providers are available for all platforms. Other versions of this provider may have different platforms supported.`,
        };
      }
      return { severity: "error", summary: "Failed to install provider", detail: `Error while installing ${name} v${v}: ${e.message}` };
    }
    default: {
      const never: never = e.phase;
      throw new Error(`unknown phase ${String(never)}`);
    }
  }
}
