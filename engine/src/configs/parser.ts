// Reading configuration from a filesystem: which files of a directory are configuration (and
// which are overrides), parsing each with the syntax its name says, and building the Module.
import { mayCallProviderFunctions, providerFunctionCallsIn } from "./provider_functions.js";
import { errorDiag, jsonBody, nativeBody, parseConfig, parseJSONConfig, type Diagnostic, type SyntaxBody } from "../hcl/index.js";
import { decodeConfigFile, type File } from "./file.js";
import { joinPath, type ConfigFS } from "./fs.js";
import { newModule, type Module } from "./module.js";

/** The configuration extension of a file name, or "" when it is not a configuration file. */
export function configFileExt(name: string): "" | ".tf" | ".tf.json" | ".tofu" | ".tofu.json" | ".tftest.hcl" | ".tftest.json" {
  if (name.endsWith(".tf")) return ".tf";
  if (name.endsWith(".tf.json")) return ".tf.json";
  if (name.endsWith(".tofu")) return ".tofu";
  if (name.endsWith(".tofu.json")) return ".tofu.json";
  if (name.endsWith(".tftest.hcl")) return ".tftest.hcl";
  if (name.endsWith(".tftest.json")) return ".tftest.json";
  return "";
}

/** Editor swap files and hidden files are not configuration. */
export function isIgnoredFile(name: string): boolean {
  return name.startsWith(".") || name.endsWith("~") || (name.startsWith("#") && name.endsWith("#"));
}

/** Drops each `x.tf` (`x.tf.json`) for which an `x.tofu` (`x.tofu.json`) is in the same list. */
function preferTofuFiles(paths: string[]): string[] {
  const all = new Set(paths);
  return paths.filter((p) => {
    const ext = configFileExt(p);
    if (ext !== ".tf" && ext !== ".tf.json") return true;
    const tofu = p.slice(0, p.length - ext.length) + (ext === ".tf" ? ".tofu" : ".tofu.json");
    return !all.has(tofu);
  });
}

export class Parser {
  /** Every source text read so far, by file name, for rendering diagnostic snippets. */
  readonly sources = new Map<string, string>();

  constructor(readonly fs: ConfigFS) {}

  /** Reads and parses one file: JSON syntax for names ending in ".json", native otherwise. */
  loadHCLFile(path: string): { body: SyntaxBody | undefined; diagnostics: Diagnostic[] } {
    const read = this.fs.readFile(path);
    if (!read.ok) {
      return { body: undefined, diagnostics: [errorDiag("Failed to read file", `The configuration file ${JSON.stringify(path)} could not be read.`)] };
    }
    if (path.endsWith(".json")) {
      const r = parseJSONConfig(read.data, path);
      this.sources.set(path, r.result.source);
      return { body: jsonBody(r.result.root), diagnostics: r.diagnostics };
    }
    const r = parseConfig(read.data, path);
    this.sources.set(path, r.result.source);
    return { body: nativeBody(r.result.body), diagnostics: r.diagnostics };
  }

  loadConfigFile(path: string, override = false): { file: File | undefined; diagnostics: Diagnostic[] } {
    const { body, diagnostics } = this.loadHCLFile(path);
    if (!body) return { file: undefined, diagnostics };
    const r = decodeConfigFile(body, path, override);
    diagnostics.push(...r.diagnostics);
    if (mayCallProviderFunctions(this.sources.get(path) ?? "")) r.file.providerFunctionCalls = providerFunctionCallsIn(body);
    return { file: r.file, diagnostics };
  }

  /** The primary and override configuration files of a directory, in name order. */
  configDirFiles(dir: string): { primary: string[]; override: string[]; diagnostics: Diagnostic[] } {
    const primary: string[] = [];
    const override: string[] = [];
    const read = this.fs.readDir(dir);
    if (!read.ok) {
      return {
        primary,
        override,
        diagnostics: [errorDiag("Failed to read module directory", `Module directory ${dir} does not exist or cannot be read.`)],
      };
    }
    for (const entry of read.entries) {
      if (entry.isDir) continue;
      const name = entry.name;
      const ext = configFileExt(name);
      if (ext === "" || isIgnoredFile(name) || ext === ".tftest.hcl" || ext === ".tftest.json") continue;
      const base = name.slice(0, name.length - ext.length);
      const full = joinPath(dir, name);
      if (base === "override" || base.endsWith("_override")) override.push(full);
      else primary.push(full);
    }
    return { primary: preferTofuFiles(primary), override: preferTofuFiles(override), diagnostics: [] };
  }

  /** Whether the directory exists and holds at least one configuration file. */
  isConfigDir(dir: string): boolean {
    const { primary, override } = this.configDirFiles(dir);
    return primary.length + override.length > 0;
  }

  /**
   * Loads a directory as a module. The module is undefined only when the directory cannot be
   * read; with error diagnostics it may be incomplete but is still fit for careful analysis.
   */
  loadConfigDir(dir: string): { module: Module | undefined; diagnostics: Diagnostic[] } {
    const files = this.configDirFiles(dir);
    if (files.diagnostics.some((d) => d.severity === "error")) return { module: undefined, diagnostics: files.diagnostics };
    const diagnostics: Diagnostic[] = [];
    const load = (paths: string[], override: boolean): File[] => {
      const out: File[] = [];
      for (const p of paths) {
        const r = this.loadConfigFile(p, override);
        diagnostics.push(...r.diagnostics);
        if (r.file) out.push(r.file);
      }
      return out;
    };
    const primary = load(files.primary, false);
    const override = load(files.override, true);
    const m = newModule(primary, override, dir);
    diagnostics.push(...m.diagnostics);
    return { module: m.module, diagnostics };
  }
}
