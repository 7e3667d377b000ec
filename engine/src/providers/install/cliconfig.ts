// The parts of the CLI configuration (`.tofurc`, `.terraformrc`, TF_CLI_CONFIG_FILE, and the
// `*.tfrc`/`*.tfrc.json` files of the configuration directory) that Terrace reads:
// `provider_installation`, `plugin_cache_dir` and `credentials`. Pure: the text comes in as a
// string; finding and reading the files is cliconfig-load.ts's job.
//
// OpenTofu still reads these files with HCL 1 (cliconfig-syntax.ts), whose syntax differs from
// HCL 2 where it matters here: `dev_overrides { "hashicorp/aws" = "/dir" }` has quoted keys, and
// `${...}` in a string is plain text. Error texts are OpenTofu's, including its "at LINE:COL"
// positions.
import type { Diagnostic, Pos } from "../../hcl/index.js";
import { parseProviderSourceString, type Provider } from "../../addrs/index.js";
import { HCL1Error, parseHCL1, type Item, type Value } from "./cliconfig-syntax.js";

export type ProviderInstallationLocation =
  | { readonly kind: "direct" }
  | { readonly kind: "filesystem_mirror"; readonly path: string }
  | { readonly kind: "network_mirror"; readonly url: string };

export interface ProviderInstallationMethod {
  readonly location: ProviderInstallationLocation;
  readonly include: readonly string[];
  readonly exclude: readonly string[];
}

export interface DevOverride {
  readonly provider: Provider;
  /** The directory holding the provider's executable, cleaned like Go's filepath.Clean. */
  readonly dir: string;
}

export interface ProviderInstallation {
  readonly methods: readonly ProviderInstallationMethod[];
  /** Keyed by provider address string. */
  readonly devOverrides: ReadonlyMap<string, DevOverride>;
}

/** A `credentials "<host>"` block's arguments; only a string `token` is used. */
export interface HostCredentials {
  readonly token?: string;
}

export interface CLIConfig {
  pluginCacheDir: string;
  pluginCacheMayBreakDependencyLockFile: boolean;
  /** Every provider_installation block found; more than one is an error reported by validation. */
  providerInstallation: ProviderInstallation[];
  /** By host as written (compare with the host's lower-case form). */
  credentials: Map<string, HostCredentials>;
}

export function emptyCLIConfig(): CLIConfig {
  return { pluginCacheDir: "", pluginCacheMayBreakDependencyLockFile: false, providerInstallation: [], credentials: new Map() };
}

function sourceless(severity: "error" | "warning", summary: string, detail: string): Diagnostic {
  return { severity, summary, detail };
}

function posString(p: Pos): string {
  return `${p.line}:${p.column}`;
}

/** Strings from a list (a lone string counts as a list of one, as HCL 1's decoder allows). */
function stringList(v: Value, name: string): string[] | string {
  const items = v.kind === "list" ? v.items : [v];
  const out: string[] = [];
  for (const it of items) {
    if (it.kind === "string") out.push(it.value);
    else if (it.kind === "number" || it.kind === "bool") out.push(it.kind === "number" ? it.text : String(it.value));
    else return `${name}: unknown type for string ${it.kind}`;
  }
  return out;
}

/** Go's filepath.Clean for `/`-separated paths. */
export function cleanPath(p: string): string {
  if (p === "") return ".";
  const rooted = p.startsWith("/");
  const out: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!rooted) out.push("..");
      continue;
    }
    out.push(part);
  }
  const s = (rooted ? "/" : "") + out.join("/");
  return s === "" ? (rooted ? "/" : ".") : s;
}

function decodeMethodBody(method: string, body: Item[], blockPos: Pos, diagnostics: Diagnostic[]): { path: string; url: string; include: string[]; exclude: string[] } | undefined {
  const out = { path: "", url: "", include: [] as string[], exclude: [] as string[] };
  const bad = (msg: string) => {
    diagnostics.push(sourceless("error", "Invalid provider_installation method block", `Invalid ${method} block at ${posString(blockPos)}: ${msg}.`));
    return undefined;
  };
  for (const item of body) {
    const key = item.keys[0] as string;
    if (key === "include" || key === "exclude") {
      const l = stringList(item.value, key);
      if (typeof l === "string") return bad(l);
      out[key] = l;
    } else if ((key === "path" && method === "filesystem_mirror") || (key === "url" && method === "network_mirror")) {
      if (item.value.kind !== "string") return bad(`${key}: unknown type for string ${item.value.kind}`);
      out[key] = item.value.value;
    }
    // HCL 1's decoder ignores arguments it does not know.
  }
  return out;
}

function decodeProviderInstallation(items: Item[], diagnostics: Diagnostic[]): ProviderInstallation[] {
  const ret: ProviderInstallation[] = [];
  for (const block of items) {
    if (block.keys[0] !== "provider_installation") continue;
    const at = posString(block.pos);
    // JSON has no way to write a block, so OpenTofu skips the block-shape checks for it.
    const json = block.json;
    if (block.assign && !json) {
      diagnostics.push(sourceless("error", "Invalid provider_installation block", `The provider_installation block at ${at} must not be introduced with an equals sign.`));
      continue;
    }
    if (block.keys.length > 1 && !json) {
      diagnostics.push(sourceless("error", "Invalid provider_installation block", `The provider_installation block at ${at} must not have any labels.`));
    }
    if (block.value.kind !== "object") {
      diagnostics.push(sourceless("error", "Invalid provider_installation block", `The provider_installation block at ${at} must not be introduced with an equals sign.`));
      continue;
    }
    const methods: ProviderInstallationMethod[] = [];
    const devOverrides = new Map<string, DevOverride>();
    for (const methodBlock of block.value.items) {
      if ((methodBlock.assign && !json) || methodBlock.value.kind !== "object") {
        diagnostics.push(sourceless("error", "Invalid provider_installation method block", `The items inside the provider_installation block at ${at} must all be blocks.`));
        continue;
      }
      if (methodBlock.keys.length > 1 && !json) {
        diagnostics.push(sourceless("error", "Invalid provider_installation method block", `The blocks inside the provider_installation block at ${at} may not have any labels.`));
      }
      const methodType = methodBlock.keys[0] as string;
      const body = methodBlock.value.items;
      switch (methodType) {
        case "direct":
        case "filesystem_mirror":
        case "network_mirror": {
          const c = decodeMethodBody(methodType, body, block.pos, diagnostics);
          if (!c) continue;
          let location: ProviderInstallationLocation;
          if (methodType === "direct") location = { kind: "direct" };
          else if (methodType === "filesystem_mirror") {
            if (c.path === "") {
              diagnostics.push(sourceless("error", "Invalid provider_installation method block", `Invalid ${methodType} block at ${at}: "path" argument is required.`));
              continue;
            }
            location = { kind: "filesystem_mirror", path: c.path };
          } else {
            if (c.url === "") {
              diagnostics.push(sourceless("error", "Invalid provider_installation method block", `Invalid ${methodType} block at ${at}: "url" argument is required.`));
              continue;
            }
            location = { kind: "network_mirror", url: c.url };
          }
          methods.push({ location, include: c.include, exclude: c.exclude });
          break;
        }
        case "dev_overrides": {
          if (methods.length > 0) {
            // Overrides bypass selection altogether, so they must come first to avoid implying an order.
            diagnostics.push(
              sourceless(
                "error",
                "Invalid provider_installation method block",
                `The dev_overrides block at at ${posString(methodBlock.pos)} must appear before all other installation methods, because development overrides always have the highest priority.`,
              ),
            );
            continue;
          }
          for (const entry of body) {
            const rawAddr = entry.keys[0] as string;
            if (entry.value.kind !== "string") {
              diagnostics.push(sourceless("error", "Invalid provider_installation method block", `Invalid ${methodType} block at ${at}: ${rawAddr}: unknown type for string ${entry.value.kind}.`));
              continue;
            }
            const parsed = parseProviderSourceString(rawAddr);
            if (parsed.result === undefined) {
              const err = parsed.diagnostics.map((d) => `${d.summary}: ${d.detail}`).join("\n");
              diagnostics.push(
                sourceless("error", "Invalid provider installation dev overrides", `The entry ${JSON.stringify(rawAddr)} in ${at} is not a valid provider source string.\n\n${err}`),
              );
              continue;
            }
            devOverrides.set(parsed.result.toString(), { provider: parsed.result, dir: cleanPath(entry.value.value) });
          }
          break;
        }
        default:
          diagnostics.push(
            sourceless("error", "Invalid provider_installation method block", `Unknown provider installation method ${JSON.stringify(methodType)} at ${posString(methodBlock.pos)}.`),
          );
      }
    }
    ret.push({ methods, devOverrides });
  }
  return ret;
}

/**
 * `credentials "<host>" { token = "…" }` blocks, or a `credentials = { "<host>" = { … } }` map
 * (HCL 1's decoder takes either, and JSON reads as the first). A later block for the same host
 * replaces an earlier one.
 */
function decodeCredentials(items: Item[]): Map<string, HostCredentials> {
  const out = new Map<string, HostCredentials>();
  const add = (host: string, v: Value) => {
    if (v.kind !== "object") return;
    const token = v.items.find((a) => a.keys.length === 1 && a.keys[0] === "token")?.value;
    out.set(host, token?.kind === "string" ? { token: token.value } : {});
  };
  for (const item of items) {
    if (item.keys[0] !== "credentials") continue;
    if (item.keys.length === 2) add(item.keys[1] as string, item.value);
    else if (item.keys.length === 1 && item.value.kind === "object") {
      for (const h of item.value.items) if (h.keys.length === 1) add(h.keys[0] as string, h.value);
    }
  }
  return out;
}

/** Go's os.ExpandEnv: `$NAME` and `${NAME}`; unset variables expand to "". */
export function expandEnv(s: string, env: Readonly<Record<string, string | undefined>>): string {
  return s.replace(/\$(\{([^}]*)\}|[A-Za-z0-9_]+)/g, (_m, whole: string, braced: string | undefined) => env[braced ?? whole] ?? "");
}

/**
 * Decodes one CLI configuration file. `env` is used to expand variables in plugin_cache_dir,
 * as OpenTofu does.
 */
export function decodeCLIConfig(src: string, path: string, env: Readonly<Record<string, string | undefined>> = {}): { config: CLIConfig; diagnostics: Diagnostic[] } {
  const config = emptyCLIConfig();
  const diagnostics: Diagnostic[] = [];
  let items: Item[];
  try {
    items = parseHCL1(src, path);
  } catch (e) {
    if (!(e instanceof HCL1Error)) throw e;
    diagnostics.push(sourceless("error", `Error parsing ${path}: At ${posString(e.pos)}: ${e.message}`, ""));
    return { config, diagnostics };
  }
  for (const item of items) {
    const key = item.keys[0];
    if (key === "plugin_cache_dir" && item.assign) {
      if (item.value.kind !== "string") {
        diagnostics.push(sourceless("error", `Error parsing ${path}: plugin_cache_dir: unknown type for string ${item.value.kind}`, ""));
        continue;
      }
      config.pluginCacheDir = item.value.value === "" ? "" : expandEnv(item.value.value, env);
    } else if (key === "plugin_cache_may_break_dependency_lock_file" && item.assign && item.value.kind === "bool") {
      config.pluginCacheMayBreakDependencyLockFile = item.value.value;
    }
  }
  config.providerInstallation = decodeProviderInstallation(items, diagnostics);
  config.credentials = decodeCredentials(items);
  return { config, diagnostics };
}

/** Combines two files' settings as OpenTofu's Config.Merge does (the first's cache dir wins). */
export function mergeCLIConfig(a: CLIConfig, b: CLIConfig): CLIConfig {
  return {
    pluginCacheDir: a.pluginCacheDir !== "" ? a.pluginCacheDir : b.pluginCacheDir,
    pluginCacheMayBreakDependencyLockFile: a.pluginCacheMayBreakDependencyLockFile || b.pluginCacheMayBreakDependencyLockFile,
    providerInstallation: [...a.providerInstallation, ...b.providerInstallation],
    // A later file's entry for a host replaces an earlier one's.
    credentials: new Map([...a.credentials, ...b.credentials]),
  };
}
