// The modules manifest, `.terraform/modules/modules.json`: where `init` put each installed module
// (OpenTofu's modsdir.Manifest), read and written in OpenTofu's exact format.
import { errorDiag, type Diagnostic } from "../hcl/index.js";
import { allConfigs, type Config } from "./config.js";
import { dataDir } from "./datadir.js";
import { joinPath, type ConfigFS } from "./fs.js";
import { moduleSourceString } from "./module_source.js";
import { parseVersion, versionString, type Version } from "./version_constraint.js";

export const MANIFEST_FILENAME = "modules.json";

/** `<data dir>/modules`, where installed modules and their manifest are. */
export function manifestDir(): string {
  return joinPath(dataDir(), "modules");
}

/** The manifest file of the working directory (an absolute data directory stands on its own). */
export function manifestPath(workingDir: string): string {
  const dir = manifestDir();
  return dir.startsWith("/") ? joinPath(dir, MANIFEST_FILENAME) : joinPath(workingDir, dir, MANIFEST_FILENAME);
}

export interface ManifestRecord {
  /** The module path joined with "." ("" for the root module). */
  key: string;
  /** The normalised source address. */
  sourceAddr: string;
  version: Version | undefined;
  /** Slash-separated, relative to the working directory. */
  dir: string;
}

/** Records by key. */
export type ModuleManifest = Map<string, ManifestRecord>;

export function manifestKey(path: readonly string[]): string {
  return path.join(".");
}

interface RecordJSON {
  Key?: unknown;
  Source?: unknown;
  Version?: unknown;
  Dir?: unknown;
}

function manifestError(detail: string): Diagnostic {
  return errorDiag("Failed to read module manifest", detail);
}

/** Parses a manifest snapshot. An empty file is an empty manifest. */
export function readManifestSnapshot(src: string): { manifest: ModuleManifest; diagnostics: Diagnostic[] } {
  const manifest: ModuleManifest = new Map();
  if (src.trim() === "") return { manifest, diagnostics: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(src);
  } catch (e) {
    return { manifest, diagnostics: [manifestError(`error unmarshalling snapshot: ${e instanceof Error ? e.message : String(e)}`)] };
  }
  const modules = typeof parsed === "object" && parsed !== null ? (parsed as { Modules?: unknown }).Modules : undefined;
  if (modules === undefined || modules === null) return { manifest, diagnostics: [] };
  if (!Array.isArray(modules)) return { manifest, diagnostics: [manifestError("error unmarshalling snapshot: Modules is not an array")] };
  for (const raw of modules as unknown[]) {
    const r = (typeof raw === "object" && raw !== null ? raw : {}) as RecordJSON;
    const key = typeof r.Key === "string" ? r.Key : "";
    const versionStr = typeof r.Version === "string" ? r.Version : "";
    let version: Version | undefined;
    if (versionStr !== "") {
      version = parseVersion(versionStr);
      if (!version) return { manifest: new Map(), diagnostics: [manifestError(`invalid version ${JSON.stringify(versionStr)} for ${key}: malformed version: ${versionStr}`)] };
    }
    if (manifest.has(key)) return { manifest: new Map(), diagnostics: [manifestError(`snapshot file contains two records for path ${key}`)] };
    manifest.set(key, {
      key,
      sourceAddr: typeof r.Source === "string" ? r.Source : "",
      version,
      dir: (typeof r.Dir === "string" ? r.Dir : "").replace(/\\/g, "/"),
    });
  }
  return { manifest, diagnostics: [] };
}

/** The snapshot as OpenTofu writes it: compact JSON, records sorted by key. */
export function writeManifestSnapshot(manifest: ModuleManifest): string {
  const keys = [...manifest.keys()].sort();
  const records = keys.map((k) => {
    const r = manifest.get(k) as ManifestRecord;
    const out: Record<string, string> = { Key: r.key, Source: r.sourceAddr };
    if (r.version) out.Version = versionString(r.version);
    out.Dir = r.dir;
    return out;
  });
  return JSON.stringify({ Modules: records });
}

/** Reads `<workingDir>/.terraform/modules/modules.json`; a missing file is an empty manifest. */
export function readManifestForDir(fs: ConfigFS, workingDir: string): { manifest: ModuleManifest; diagnostics: Diagnostic[] } {
  const r = fs.readFile(manifestPath(workingDir));
  if (!r.ok) return { manifest: new Map(), diagnostics: [] };
  const text = typeof r.data === "string" ? r.data : new TextDecoder().decode(r.data);
  return readManifestSnapshot(text);
}

export function writeManifestForDir(fs: ConfigFS, workingDir: string, manifest: ModuleManifest): Diagnostic[] {
  if (!fs.writeFile) return [errorDiag("Failed to write module manifest", "This filesystem cannot write files.")];
  const path = manifestPath(workingDir);
  const r = fs.writeFile(path, writeManifestSnapshot(manifest));
  return r.ok ? [] : [errorDiag("Failed to write module manifest", `Error writing ${path}: ${r.error}`)];
}

/** Directory `dir` relative to `base` (Go's filepath.Rel for clean, like-rooted paths). */
function relativeTo(base: string, dir: string): string {
  const split = (p: string) => (joinPath(p) === "." ? [] : joinPath(p).split("/"));
  const b = split(base);
  const d = split(dir);
  let i = 0;
  while (i < b.length && i < d.length && b[i] === d[i]) i++;
  const parts = [...b.slice(i).map(() => ".."), ...d.slice(i)];
  return parts.length === 0 ? "." : parts.join("/");
}

/**
 * The manifest for a loaded tree: the root and every module loaded from a local path get
 * records (as `init` writes them); modules from elsewhere keep the records they already had.
 */
export function manifestForConfig(config: Config, workingDir: string, existing?: ModuleManifest): ModuleManifest {
  const out: ModuleManifest = new Map();
  for (const c of allConfigs(config)) {
    const key = manifestKey(c.path);
    const prev = existing?.get(key);
    if (c.path.length === 0) {
      out.set(key, { key, sourceAddr: "", version: undefined, dir: "." });
      continue;
    }
    if (c.sourceAddr?.kind === "local") {
      out.set(key, { key, sourceAddr: moduleSourceString(c.sourceAddr), version: undefined, dir: relativeTo(workingDir, c.module.sourceDir) });
    } else if (prev) out.set(key, prev);
  }
  return out;
}
