// Filesystem mirrors (OpenTofu's getproviders.SearchLocalDirectory and FilesystemMirrorSource):
// a directory of provider packages in either layout,
//   packed:    HOSTNAME/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip
//   unpacked:  HOSTNAME/NAMESPACE/TYPE/VERSION/OS_ARCH/  (the package's files)
// Node file-system code; the same search reads `.terraform/providers` and the plugin cache.
import { lstat, readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { hostnameForComparison, LegacyProviderNamespace, DefaultProviderRegistryHost, newLegacyProvider, parseProviderPart, Provider } from "../../addrs/index.js";
import { isUnspecifiedVersion, parseVersion, sortVersions, versionsEqual, versionString, type Version } from "../../versions/index.js";
import { comparePackageMeta, parsePlatform, platformString, type MetaResult, type PackageMeta, type Platform, type ProviderSource, type VersionsResult } from "./source.js";
import { goErrnoText } from "../../host/errno.js";

/** What a directory search found, keyed by provider address string. */
export type PackagesByProvider = Map<string, PackageMeta[]>;

function providerFromParts(hostnameGiven: string, namespace: string, typeName: string): Provider | undefined {
  // The legacy namespace "-" is a special case, valid only on the default registry.
  if (namespace !== LegacyProviderNamespace && parseProviderPart(namespace).error !== undefined) return undefined;
  const type = parseProviderPart(typeName);
  if (type.error !== undefined) return undefined;
  const host = hostnameForComparison(hostnameGiven);
  if (host.error !== undefined) return undefined;
  if (namespace === LegacyProviderNamespace) {
    return host.hostname === DefaultProviderRegistryHost ? newLegacyProvider(typeName) : undefined;
  }
  return new Provider(host.hostname, (parseProviderPart(namespace) as { part: string }).part, type.part);
}

/**
 * Scans `baseDir` for packages in both layouts. Entries that do not fit are skipped (OpenTofu
 * only logs them). The base directory itself may be a symlink; symlinks further down are
 * followed only where a package itself is (a version/platform directory or a .zip file), so the
 * walk cannot loop.
 */
export async function searchLocalDirectory(baseDir: string): Promise<{ ok: true; packages: PackagesByProvider } | { ok: false; error: string }> {
  let base = baseDir;
  try {
    base = await realpath(baseDir);
  } catch {
    // If it cannot be resolved, walking the name as given reports the real problem below.
  }
  const found: PackagesByProvider = new Map();
  const add = (meta: PackageMeta) => {
    const key = meta.provider.toString();
    const list = found.get(key) ?? [];
    list.push(meta);
    found.set(key, list);
  };

  try {
    await lstat(base);
  } catch (e) {
    return { ok: false, error: `cannot search ${base}: lstat ${base}: ${goErrnoText(e)}` };
  }

  // Walk in lexical order, as Go's filepath.Walk does, so "first package found" is the same.
  const list = async (dir: string): Promise<string[]> => {
    try {
      return (await readdir(dir)).sort();
    } catch {
      return [];
    }
  };
  const isRealDir = async (p: string): Promise<boolean> => {
    try {
      return (await lstat(p)).isDirectory();
    } catch {
      return false;
    }
  };

  for (const host of await list(base)) {
    const hostDir = path.join(base, host);
    if (!(await isRealDir(hostDir))) continue;
    for (const ns of await list(hostDir)) {
      const nsDir = path.join(hostDir, ns);
      if (!(await isRealDir(nsDir))) continue;
      for (const typeName of await list(nsDir)) {
        const provider = providerFromParts(host, ns, typeName);
        if (!provider) continue;
        const typeDir = path.join(nsDir, typeName);
        if (!(await isRealDir(typeDir))) continue;
        for (const name of await list(typeDir)) {
          const full = path.join(typeDir, name);
          let info;
          try {
            info = await stat(full);
          } catch {
            continue;
          }
          if (info.isDirectory()) {
            // Unpacked layout: VERSION/OS_ARCH directories.
            const version = parseVersion(name);
            if (!version.ok) continue;
            if (!(await isRealDir(full))) continue;
            for (const plat of await list(full)) {
              const pkgDir = path.join(full, plat);
              try {
                if (!(await stat(pkgDir)).isDirectory()) continue;
              } catch {
                continue;
              }
              const platform = parsePlatform(plat);
              if (!platform.ok) continue;
              add({
                provider,
                version: version.value,
                targetPlatform: platform.platform,
                filename: `terraform-provider-${provider.type}_${versionString(version.value)}_${platformString(platform.platform)}.zip`,
                location: { kind: "localDir", path: pkgDir },
              });
            }
          } else {
            // Packed layout: the file name carries version and platform, matched case-insensitively.
            const norm = name.toLowerCase();
            const prefix = `terraform-provider-${provider.type}_`;
            if (!norm.startsWith(prefix) || !norm.endsWith(".zip")) continue;
            const infoParts = norm.slice(prefix.length, norm.length - ".zip".length).split("_");
            if (infoParts.length < 3) continue;
            const version = parseVersion(infoParts[0] as string);
            if (!version.ok) continue;
            const platform = parsePlatform(`${infoParts[1]}_${infoParts[2]}`);
            if (!platform.ok) continue;
            add({ provider, version: version.value, targetPlatform: platform.platform, filename: norm, location: { kind: "localArchive", path: full } });
          }
        }
      }
    }
  }
  for (const [k, l] of found) found.set(k, [...l].sort(comparePackageMeta));
  return { ok: true, packages: found };
}

/** A local directory of provider packages, as a source (getproviders.FilesystemMirrorSource). */
export class FilesystemMirrorSource implements ProviderSource {
  private scanned: Promise<{ ok: true; packages: PackagesByProvider } | { ok: false; error: string }> | undefined;

  constructor(readonly baseDir: string) {}

  /** Scans once; later calls reuse the result. */
  allAvailablePackages(): Promise<{ ok: true; packages: PackagesByProvider } | { ok: false; error: string }> {
    this.scanned ??= searchLocalDirectory(this.baseDir);
    return this.scanned;
  }

  async availableVersions(provider: Provider): Promise<VersionsResult> {
    const scan = await this.allAvailablePackages();
    if (!scan.ok) return { ok: false, error: { kind: "failed", message: scan.error } };
    const versions: Version[] = [];
    for (const m of scan.packages.get(provider.toString()) ?? []) {
      if (!versions.some((v) => versionsEqual(v, m.version))) versions.push(m.version);
    }
    const sorted = sortVersions(versions);
    const warnings: string[] = [];
    if (sorted.length > 0 && isUnspecifiedVersion(sorted[0] as Version)) {
      warnings.push(
        `Provider ${provider.toString()} has an unspecified (0.0.0) version available in the filesystem mirror, source at ${this.baseDir}. It will not be used. \n` +
          "If the version 0.0.0 is intended to represent a non-published provider, consider using dev_overrides - https://opentofu.org/docs/cli/config/config-file/#development-overrides-for-provider-developers",
      );
    }
    return { ok: true, versions: sorted, warnings };
  }

  async packageMeta(provider: Provider, version: Version, target: Platform): Promise<MetaResult> {
    const scan = await this.allAvailablePackages();
    if (!scan.ok) return { ok: false, error: { kind: "failed", message: scan.error } };
    // With both a packed and an unpacked copy the choice is arbitrary: take the first.
    const meta = (scan.packages.get(provider.toString()) ?? []).find(
      (m) => versionsEqual(m.version, version) && m.targetPlatform.os === target.os && m.targetPlatform.arch === target.arch,
    );
    // The version came from availableVersions, so only the platform can be missing.
    if (!meta) return { ok: false, error: { kind: "platformNotSupported", provider, version, platform: target } };
    return { ok: true, meta };
  }

  forDisplay(): string {
    return this.baseDir;
  }
}
