// Finding and reading the CLI configuration as OpenTofu does on Unix, and turning its
// provider_installation settings (or, without any, the implied local mirror directories) into a
// provider source. Node file-system code; the decoding itself is cliconfig.ts.
import { readdir, readFile, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Diagnostic } from "../../hcl/index.js";
import { decodeCLIConfig, emptyCLIConfig, mergeCLIConfig, type CLIConfig, type DevOverride, type ProviderInstallationLocation } from "./cliconfig.js";
import { FilesystemMirrorSource } from "./fsmirror.js";
import {
  BundledProviderSource,
  MultiSource,
  OfflineRegistrySource,
  parseMatchingPatterns,
  type ProviderPattern,
  type ProviderSource,
  type SourceSelector,
  type VersionsResult,
  type MetaResult,
} from "./source.js";
import type { Provider } from "../../addrs/index.js";
import type { Version } from "../../versions/index.js";
import type { Platform } from "./source.js";
import { goErrnoText } from "../../host/errno.js";

/** What the lookup depends on, injectable for tests. */
export interface CLIEnvironment {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** $HOME, or the user database's home directory when HOME is unset. */
  readonly homeDir: string;
  /** The working directory (`terraform.d/plugins` is looked up relative to it). */
  readonly cwd: string;
}

export function processCLIEnvironment(): CLIEnvironment {
  return { env: process.env, homeDir: process.env.HOME || os.homedir(), cwd: process.cwd() };
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

async function isDir(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** TF_CLI_CONFIG_FILE (or the older TERRAFORM_CONFIG): a file that replaces the default ones. */
export function cliConfigFileOverride(e: CLIEnvironment): string {
  return e.env.TF_CLI_CONFIG_FILE || e.env.TERRAFORM_CONFIG || "";
}

/**
 * The default CLI config file: ~/.tofurc, or the legacy ~/.terraformrc when only that exists, or
 * $XDG_CONFIG_HOME/opentofu/tofurc on a fresh install where XDG_CONFIG_HOME is set.
 */
export async function defaultConfigFile(e: CLIEnvironment): Promise<string> {
  const fresh = path.join(e.homeDir, ".tofurc");
  const legacy = path.join(e.homeDir, ".terraformrc");
  const xdg = e.env.XDG_CONFIG_HOME;
  if (xdg && !(await exists(legacy)) && !(await exists(fresh))) return path.join(xdg, "opentofu", "tofurc");
  if ((await exists(legacy)) && !(await exists(fresh))) return legacy;
  return fresh;
}

/** ~/.terraform.d, or $XDG_CONFIG_HOME/opentofu when that is set and ~/.terraform.d does not exist. */
export async function configDir(e: CLIEnvironment): Promise<string> {
  const dir = path.join(e.homeDir, ".terraform.d");
  const xdg = e.env.XDG_CONFIG_HOME;
  return xdg && !(await exists(dir)) ? path.join(xdg, "opentofu") : dir;
}

/** ~/.terraform.d, or $XDG_DATA_HOME/opentofu when that is set and ~/.terraform.d does not exist. */
export async function dataDirs(e: CLIEnvironment): Promise<string[]> {
  const dir = path.join(e.homeDir, ".terraform.d");
  const xdg = e.env.XDG_DATA_HOME;
  return [xdg && !(await exists(dir)) ? path.join(xdg, "opentofu") : dir];
}

/**
 * Reads the CLI configuration: the main file (TF_CLI_CONFIG_FILE or the default), then, unless
 * the override is set, every *.tfrc and *.tfrc.json in the config directory, in name order; then
 * the environment (TF_PLUGIN_CACHE_DIR, TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE) on top;
 * then validation.
 */
export async function loadCLIConfig(e: CLIEnvironment): Promise<{ config: CLIConfig; diagnostics: Diagnostic[]; files: string[] }> {
  const diagnostics: Diagnostic[] = [];
  const files: string[] = [];
  let config = emptyCLIConfig();
  const readOne = async (file: string) => {
    let src: string;
    try {
      src = await readFile(file, "utf8");
    } catch (err) {
      diagnostics.push({ severity: "error", summary: `Error reading ${file}: ${(err as Error).message}`, detail: "" });
      return;
    }
    files.push(file);
    const r = decodeCLIConfig(src, file, e.env);
    diagnostics.push(...r.diagnostics);
    config = mergeCLIConfig(config, r.config);
  };

  const override = cliConfigFileOverride(e);
  // A relative TF_CLI_CONFIG_FILE names a file in the working directory; messages quote it as given.
  const main = override ? path.resolve(e.cwd, override) : await defaultConfigFile(e);
  if (await exists(main)) await readOne(main);
  else if (override) {
    diagnostics.push({ severity: "warning", summary: "Unable to open CLI configuration file", detail: `The CLI configuration file at ${JSON.stringify(override)} does not exist.` });
  }

  if (!override) {
    const dir = await configDir(e);
    if (await isDir(dir)) {
      for (const name of (await readdir(dir)).sort()) {
        // credentials.tfrc.json, which `login` writes, is one of these.
        if (name.endsWith(".tfrc") || name.endsWith(".tfrc.json")) await readOne(path.join(dir, name));
      }
    }
  }

  const envCache = e.env.TF_PLUGIN_CACHE_DIR;
  const envMayBreak = e.env.TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE;
  config = mergeCLIConfig(
    { pluginCacheDir: envCache ?? "", pluginCacheMayBreakDependencyLockFile: envMayBreak !== undefined && envMayBreak !== "" && envMayBreak !== "0", providerInstallation: [], credentials: new Map() },
    config,
  );

  if (config.providerInstallation.length > 1) {
    diagnostics.push({ severity: "error", summary: "No more than one provider_installation block may be specified", detail: "" });
  }
  if (config.pluginCacheDir !== "") {
    try {
      await stat(config.pluginCacheDir);
    } catch (err) {
      const code = goErrnoText(err);
      diagnostics.push({
        severity: "error",
        summary: `The specified plugin cache dir ${config.pluginCacheDir} cannot be opened: stat ${config.pluginCacheDir}: ${code}`,
        detail: "",
      });
    }
  }
  return { config, diagnostics, files };
}

/** The development overrides of the (first) provider_installation block. */
export function devOverrides(config: CLIConfig): ReadonlyMap<string, DevOverride> {
  return config.providerInstallation[0]?.devOverrides ?? new Map();
}

/**
 * The directories searched when there is no provider_installation block, in OpenTofu's order:
 * terraform.d/plugins in the working directory, the CLI data directory's plugins, then the XDG
 * data directories ($XDG_DATA_HOME or ~/.local/share, then $XDG_DATA_DIRS or
 * /usr/local/share:/usr/share) under terraform/plugins.
 */
export async function impliedSearchDirs(e: CLIEnvironment): Promise<string[]> {
  const dirs = [path.join(e.cwd, "terraform.d", "plugins")];
  for (const d of await dataDirs(e)) dirs.push(path.join(d, "plugins"));
  const dataHome = e.env.XDG_DATA_HOME || path.join(e.homeDir, ".local", "share");
  dirs.push(path.join(dataHome, "terraform", "plugins"));
  const dataDirsEnv = e.env.XDG_DATA_DIRS || "/usr/local/share/:/usr/share/";
  for (const d of dataDirsEnv.split(":")) if (d !== "") dirs.push(path.join(d, "terraform", "plugins"));
  return dirs;
}

/** A network mirror cannot be reached from here; it is kept in the list so messages name it. */
class OfflineNetworkMirrorSource implements ProviderSource {
  constructor(private readonly url: string) {}
  async availableVersions(provider: Provider): Promise<VersionsResult> {
    return { ok: false, error: { kind: "providerNotFound", provider, sources: [this.forDisplay()] } };
  }
  async packageMeta(provider: Provider, version: Version, target: Platform): Promise<MetaResult> {
    return { ok: false, error: { kind: "platformNotSupported", provider, version, platform: target } };
  }
  forDisplay(): string {
    return `provider mirror at ${this.url} (not contacted: Terrace has no network access for provider downloads)`;
  }
}

function sourceForLocation(loc: ProviderInstallationLocation): { source?: ProviderSource; diagnostic?: Diagnostic } {
  switch (loc.kind) {
    case "direct":
      return { source: new OfflineRegistrySource() };
    case "filesystem_mirror":
      return { source: new FilesystemMirrorSource(loc.path) };
    case "network_mirror": {
      let url: URL | undefined;
      try {
        url = new URL(loc.url);
      } catch (err) {
        return {
          diagnostic: {
            severity: "error",
            summary: "Invalid URL for provider installation source",
            detail: `Cannot parse ${JSON.stringify(loc.url)} as a URL for a network provider mirror: ${(err as Error).message}.`,
          },
        };
      }
      if (url.protocol !== "https:" || url.host === "") {
        return {
          diagnostic: {
            severity: "error",
            summary: "Invalid URL for provider installation source",
            detail: `Cannot use ${JSON.stringify(loc.url)} as a URL for a network provider mirror: the mirror must be at an https: URL.`,
          },
        };
      }
      return { source: new OfflineNetworkMirrorSource(loc.url) };
    }
    default: {
      const never: never = loc;
      throw new Error(`unknown installation method ${JSON.stringify(never)}`);
    }
  }
}

/**
 * The provider source for `init`: the bundled providers first, then either the configured
 * installation methods in order, or the implied local directories followed by the (offline)
 * origin registry, which excludes every provider found locally, as OpenTofu's implied source does.
 */
export async function providerSourceForCLIConfig(
  config: CLIConfig,
  e: CLIEnvironment,
  bundled: BundledProviderSource = new BundledProviderSource(),
): Promise<{ source: MultiSource; diagnostics: Diagnostic[]; searchDirs: string[] }> {
  const diagnostics: Diagnostic[] = [];
  const selectors: SourceSelector[] = [{ source: bundled, include: [], exclude: [] }];
  const searchDirs: string[] = [];
  const explicit = config.providerInstallation[0];
  if (explicit) {
    for (const m of explicit.methods) {
      const { source, diagnostic } = sourceForLocation(m.location);
      if (diagnostic) diagnostics.push(diagnostic);
      if (!source) continue;
      const include = parseMatchingPatterns(m.include);
      if (!include.ok) {
        diagnostics.push({ severity: "error", summary: "Invalid provider source inclusion patterns", detail: `CLI config specifies invalid provider inclusion patterns: ${include.error}.` });
        continue;
      }
      const exclude = parseMatchingPatterns(m.exclude);
      if (!exclude.ok) {
        diagnostics.push({ severity: "error", summary: "Invalid provider source exclusion patterns", detail: `CLI config specifies invalid provider exclusion patterns: ${exclude.error}.` });
        continue;
      }
      if (m.location.kind === "filesystem_mirror") searchDirs.push(m.location.path);
      selectors.push({ source, include: include.patterns, exclude: exclude.patterns });
    }
    return { source: new MultiSource(selectors), diagnostics, searchDirs };
  }

  const foundLocally: ProviderPattern[] = [];
  for (const dir of await impliedSearchDirs(e)) {
    // Missing directories are skipped here (unlike an explicit mirror, where that is an error).
    if (!(await isDir(dir))) continue;
    const fs = new FilesystemMirrorSource(dir);
    const scan = await fs.allAvailablePackages();
    if (scan.ok) {
      for (const metas of scan.packages.values()) {
        const p = metas[0]?.provider;
        if (p) foundLocally.push({ hostname: p.hostname, namespace: p.namespace, type: p.type });
      }
    }
    searchDirs.push(dir);
    selectors.push({ source: fs, include: [], exclude: [] });
  }
  selectors.push({ source: new OfflineRegistrySource(), include: [], exclude: foundLocally });
  return { source: new MultiSource(selectors), diagnostics, searchDirs };
}
