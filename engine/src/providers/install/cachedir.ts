// A provider cache directory (OpenTofu's internal/providercache Dir): `.terraform/providers`, or
// the shared plugin_cache_dir. Packages live unpacked at HOSTNAME/NAMESPACE/TYPE/VERSION/OS_ARCH;
// installing one unzips an archive or links (symlink, else copy) an unpacked directory.
import { chmod, cp, mkdir, readdir, readFile, realpath, rm, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Provider } from "../../addrs/index.js";
import { versionsEqual, versionString, type Version } from "../../versions/index.js";
import { fileMatchesAnyHash, hashPackageDir } from "./fshash.js";
import { HASH_SCHEME_ZIP, hashScheme, packageMatchesAnyHash, type Hash } from "./hash.js";
import { searchLocalDirectory } from "./fsmirror.js";
import type { Locks } from "./locks.js";
import { lockPreferredHashes } from "./locks.js";
import { platformString, type PackageMeta, type Platform } from "./source.js";
import { readZip } from "./zip.js";

/** An unpacked package in a cache directory. */
export interface CachedProvider {
  readonly provider: Provider;
  readonly version: Version;
  /** The package directory (possibly a symlink into another cache or a mirror). */
  readonly packageDir: string;
}

export type InstallOutcome = { ok: true } | { ok: false; error: string };

const CHECKSUM_DOCS = "https://opentofu.org/docs/language/files/dependency-lock/#checksum-verification";

export class ProviderCacheDir {
  constructor(
    /** As given (relative paths stay relative, since they appear in messages). */
    readonly baseDir: string,
    readonly targetPlatform: Platform,
  ) {}

  packageDirFor(provider: Provider, version: Version): string {
    return path.join(this.baseDir, provider.hostname, provider.namespace, provider.type, versionString(version), platformString(this.targetPlatform));
  }

  /** The cached packages for this directory's platform (only the unpacked layout counts). */
  async allAvailablePackages(): Promise<CachedProvider[]> {
    const scan = await searchLocalDirectory(this.baseDir);
    if (!scan.ok) return [];
    const out: CachedProvider[] = [];
    for (const metas of scan.packages.values()) {
      for (const m of metas) {
        if (m.location.kind !== "localDir") continue;
        if (m.targetPlatform.os !== this.targetPlatform.os || m.targetPlatform.arch !== this.targetPlatform.arch) continue;
        out.push({ provider: m.provider, version: m.version, packageDir: m.location.path });
      }
    }
    return out;
  }

  async providerVersion(provider: Provider, version: Version): Promise<CachedProvider | undefined> {
    const dir = this.packageDirFor(provider, version);
    try {
      if (!(await stat(dir)).isDirectory()) return undefined;
    } catch {
      return undefined;
    }
    // The directory name must also parse back to exactly this version (build metadata included).
    const all = await this.allAvailablePackages();
    return all.find((c) => c.provider.equal(provider) && versionsEqual(c.version, version));
  }

  /**
   * Unpacks or links a package into place, first checking it against the allowed hashes from the
   * lock file (if any). Bundled providers have nothing to put on disk.
   */
  async installPackage(meta: PackageMeta, allowedHashes: readonly Hash[]): Promise<InstallOutcome> {
    const target = this.packageDirFor(meta.provider, meta.version);
    const loc = meta.location;
    const what = `${meta.provider.toString()} ${versionString(meta.version)}`;
    switch (loc.kind) {
      case "bundled":
        return { ok: true };
      case "localArchive": {
        let archive: Uint8Array;
        try {
          archive = await readFile(loc.path);
        } catch (e) {
          return { ok: false, error: `failed to read ${loc.path}: ${(e as Error).message}` };
        }
        if (allowedHashes.length > 0) {
          const m = packageMatchesAnyHash({ kind: "archive", archive }, allowedHashes);
          if (!m.ok) return { ok: false, error: `failed to calculate checksum for ${what} package at ${loc.path}: ${m.error}` };
          if (!m.matches) {
            return {
              ok: false,
              error: `the current package for ${what} doesn't match any of the checksums previously recorded in the dependency lock file; for more information: ${CHECKSUM_DOCS}`,
            };
          }
        }
        return unpackZip(archive, target);
      }
      case "localDir": {
        // A zh: hash can only be checked against the original archive, so a set of only zh:
        // hashes is treated as no hashes (local packages are trusted a little more).
        if (allowedHashes.some((h) => hashScheme(h) !== HASH_SCHEME_ZIP)) {
          const m = await fileMatchesAnyHash(loc.path, allowedHashes);
          if (!m.ok) return { ok: false, error: `failed to calculate checksum for ${what} package at ${loc.path}: ${m.error}` };
          if (!m.matches) {
            return {
              ok: false,
              error: `the local package for ${what} doesn't match any of the checksums previously recorded in the dependency lock file (this might be because the available checksums are for packages targeting different platforms); for more information: ${CHECKSUM_DOCS}`,
            };
          }
        }
        return linkOrCopy(loc.path, target);
      }
      default: {
        const never: never = loc;
        throw new Error(`unknown package location ${JSON.stringify(never)}`);
      }
    }
  }

  /** Links a package from another cache directory (the shared plugin cache) into this one. */
  linkFromOtherCache(entry: CachedProvider): Promise<InstallOutcome> {
    return linkOrCopy(entry.packageDir, this.packageDirFor(entry.provider, entry.version));
  }
}

/** The provider's executable in its package: the first file named terraform-provider-TYPE*. */
export function executableFile(entry: CachedProvider): Promise<{ ok: true; path: string } | { ok: false; error: string }> {
  return executableIn(entry.packageDir, entry.provider);
}

/** The first file in `dir` whose name starts with terraform-provider-<type> (a package's, or a dev_overrides directory's). */
export async function executableIn(dir: string, provider: Provider): Promise<{ ok: true; path: string } | { ok: false; error: string }> {
  const prefix = `terraform-provider-${provider.type}`;
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch (e) {
    return { ok: false, error: `could not read package directory: ${(e as Error).message}` };
  }
  for (const n of names) if (n.startsWith(prefix)) return { ok: true, path: path.join(dir, n) };
  return { ok: false, error: `could not find executable file starting with ${prefix}` };
}

/** The h1: hash of a cached package (symlinks to the package directory resolved first). */
export function cachedProviderHash(entry: CachedProvider): Promise<{ ok: true; hash: Hash } | { ok: false; error: string }> {
  return hashPackageDir(entry.packageDir);
}

function containsDotDot(name: string): boolean {
  return name.split(/[\\/]/).includes("..");
}

/** Unpacks a .zip as go-getter's ZipDecompressor does: permissions kept, `..` refused. */
async function unpackZip(archive: Uint8Array, target: string): Promise<InstallOutcome> {
  const z = readZip(archive);
  if (!z.ok) return z;
  try {
    await mkdir(target, { recursive: true, mode: 0o755 });
    for (const e of z.entries) {
      if (containsDotDot(e.name)) return { ok: false, error: `entry contains '..': ${e.name}` };
      const dest = path.join(target, e.name);
      if (e.isDir) {
        await mkdir(dest, { recursive: true, mode: 0o755 });
        continue;
      }
      await mkdir(path.dirname(dest), { recursive: true, mode: 0o755 });
      await writeFile(dest, e.data, { mode: e.mode });
      // writeFile's mode is masked by the umask; go-getter installs with umask 0.
      await chmod(dest, e.mode);
    }
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
  return { ok: true };
}

/**
 * Installs an unpacked directory as OpenTofu does: replace whatever is at the target with an
 * absolute symlink to the source, or a deep copy where a symlink cannot be made.
 */
async function linkOrCopy(source: string, target: string): Promise<InstallOutcome> {
  const absNew = path.resolve(target);
  const absCurrent = path.resolve(source);
  try {
    const [a, b] = await Promise.all([realpath(absNew).catch(() => ""), realpath(absCurrent)]);
    if (a !== "" && a === b) return { ok: false, error: `cannot install existing provider directory ${target} to itself` };
  } catch (e) {
    return { ok: false, error: `failed to determine if ${source} and ${target} are the same: ${(e as Error).message}` };
  }
  try {
    await rm(absNew, { recursive: true, force: true });
  } catch (e) {
    return { ok: false, error: `failed to remove existing ${source} before linking it to ${target}: ${(e as Error).message}` };
  }
  try {
    await mkdir(path.dirname(absNew), { recursive: true, mode: 0o755 });
  } catch (e) {
    return { ok: false, error: `failed to create parent directories leading to ${target}: ${(e as Error).message}` };
  }
  try {
    await symlink(absCurrent, absNew, "dir");
    return { ok: true };
  } catch {
    // Fall through to copying: some file systems cannot hold symlinks.
  }
  try {
    await cp(absCurrent, absNew, { recursive: true, dereference: false, preserveTimestamps: true });
    return { ok: true };
  } catch (e) {
    return { ok: false, error: `failed to either symlink or copy ${absCurrent} to ${absNew}: ${(e as Error).message}` };
  }
}

/**
 * Checks the installed packages against the lock file, as OpenTofu does before running any
 * provider: every locked provider must be in the cache and match one of its locked hashes.
 * Returns one message per provider that fails, keyed by address.
 */
export async function verifyInstalledProviders(
  locks: Locks,
  cache: ProviderCacheDir,
  skip: (provider: Provider) => boolean = () => false,
): Promise<Map<string, string>> {
  const problems = new Map<string, string>();
  for (const lock of locks.allProviders()) {
    if (skip(lock.provider) || locks.providerIsOverridden(lock.provider)) continue;
    const what = `${lock.provider.toString()} ${versionString(lock.version)}`;
    const cached = await cache.providerVersion(lock.provider, lock.version);
    if (!cached) {
      problems.set(lock.provider.toString(), `there is no package for ${what} cached in ${cache.baseDir}`);
      continue;
    }
    const allowed = lockPreferredHashes(lock);
    if (allowed.length === 0) continue;
    const m = await fileMatchesAnyHash(cached.packageDir, allowed);
    if (!m.ok) problems.set(lock.provider.toString(), `failed to verify checksum of ${what} package cached in in ${cache.baseDir}: ${m.error}`);
    else if (!m.matches) {
      problems.set(lock.provider.toString(), `the cached package for ${what} (in ${cache.baseDir}) does not match any of the checksums recorded in the dependency lock file`);
    }
  }
  return problems;
}
