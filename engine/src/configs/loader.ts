// Loading a whole configuration: the root module from a directory, then its module tree. Child
// modules with local sources are read from beside their caller; any other source must already
// be installed (by `init`) and recorded in the modules manifest, since nothing is downloaded here.
import { errorDiag, type Diagnostic } from "../hcl/index.js";
import { configCoreVersionDiagnostics } from "./core_version.js";
import { buildConfig, type Config, type ModuleRequest, type ModuleWalker, type ModuleWalkResult } from "./config.js";
import { joinPath, type ConfigFS } from "./fs.js";
import { readManifestForDir, manifestKey, manifestPath, type ModuleManifest } from "./manifest.js";
import { moduleSourceString } from "./module_source.js";
import type { Module } from "./module.js";
import { Parser } from "./parser.js";
import type { StaticModuleCall } from "./static/call.js";
import { applyStaticModuleCall } from "./static/module.js";
import { staticModuleWalker } from "./static/walker.js";
import { versionMeets, versionString } from "./version_constraint.js";

export interface LoaderOptions {
  fs: ConfigFS;
  /** The directory holding `.terraform` (the directory `tofu` runs in); default ".". */
  workingDir?: string;
  /** A manifest to use instead of reading `<workingDir>/.terraform/modules/modules.json`. */
  manifest?: ModuleManifest;
}

export class Loader {
  readonly parser: Parser;
  readonly workingDir: string;
  readonly manifest: ModuleManifest;
  readonly manifestDiagnostics: Diagnostic[];

  constructor(opts: LoaderOptions) {
    this.parser = new Parser(opts.fs);
    this.workingDir = opts.workingDir ?? ".";
    if (opts.manifest) {
      this.manifest = opts.manifest;
      this.manifestDiagnostics = [];
    } else {
      const m = readManifestForDir(opts.fs, this.workingDir);
      this.manifest = m.manifest;
      this.manifestDiagnostics = m.diagnostics;
    }
  }

  /**
   * Loads the module in rootDir and builds its tree. When the root module has errors the tree is
   * not built (as in OpenTofu), but the root module is still returned for what can be checked.
   */
  loadConfig(rootDir: string, opts: { staticCall?: StaticModuleCall } = {}): { config: Config | undefined; rootModule: Module | undefined; diagnostics: Diagnostic[] } {
    const diagnostics: Diagnostic[] = [...this.manifestDiagnostics];
    const root = this.parser.loadConfigDir(rootDir);
    diagnostics.push(...root.diagnostics);
    if (!root.module || root.diagnostics.some((d) => d.severity === "error")) return { config: undefined, rootModule: root.module, diagnostics };
    // With a static call (the CLI's root module call), module sources and versions, provider
    // for_each and the backend are evaluated from variables and locals, in every module.
    let walker = this.moduleWalker();
    if (opts.staticCall) {
      const applied = applyStaticModuleCall(root.module, opts.staticCall);
      diagnostics.push(...applied.diagnostics);
      if (applied.diagnostics.some((d) => d.severity === "error")) return { config: undefined, rootModule: root.module, diagnostics };
      walker = staticModuleWalker(walker);
    }
    const built = buildConfig(root.module, walker);
    diagnostics.push(...built.diagnostics);
    // A module that does not accept this version is the likely cause of any other problem, so its
    // errors come alone (as OpenTofu's Context bails out on them before anything else).
    const version = configCoreVersionDiagnostics(built.config);
    if (version.length > 0) return { config: undefined, rootModule: root.module, diagnostics: version };
    return { config: built.config, rootModule: root.module, diagnostics };
  }

  /** The walker: local sources from disk, others from the manifest. */
  moduleWalker(): ModuleWalker {
    return (req) => this.walk(req);
  }

  private walk(req: ModuleRequest): ModuleWalkResult {
    const none = (diagnostics: Diagnostic[]): ModuleWalkResult => ({ module: undefined, version: undefined, diagnostics });
    const src = req.sourceAddr;
    if (!src) {
      // An invalid source was reported when the call was decoded; one that needs static
      // evaluation (a variable or local) cannot be followed by this loader.
      if (req.sourceAddrRaw !== "" || !req.sourceAddrRange) return none([]);
      return none([
        errorDiag(
          "Module source not known",
          `The source address of module ${JSON.stringify(req.name)} is not a literal string, so it must be evaluated (from variables and locals) before the module can be loaded.`,
          req.sourceAddrRange,
        ),
      ]);
    }
    if (src.kind === "local") {
      const dir = joinPath(req.parent.module.sourceDir, src.path);
      const r = this.parser.loadConfigDir(dir);
      if (!r.module) {
        return none([
          errorDiag(
            "Unreadable module directory",
            `The directory ${dir} could not be read for module ${JSON.stringify(req.name)} (source ${JSON.stringify(moduleSourceString(src))}).`,
            req.sourceAddrRange ?? req.callRange,
          ),
        ]);
      }
      return { module: r.module, version: undefined, diagnostics: r.diagnostics };
    }

    const key = manifestKey(req.path);
    const record = this.manifest.get(key);
    const source = moduleSourceString(src);
    if (!record) {
      return none([
        errorDiag(
          "Module not installed",
          `This module is not yet installed. Its source ${JSON.stringify(source)} is not a local path, and no installed copy is recorded in ${manifestPath(this.workingDir)}. Run "tofu init" to install all modules required by this configuration.`,
          req.callRange,
        ),
      ]);
    }
    const diagnostics: Diagnostic[] = [];
    const subject = req.sourceAddrRange ?? req.callRange;
    if (record.sourceAddr !== source && record.sourceAddr !== req.sourceAddrRaw) {
      diagnostics.push(
        errorDiag(
          "Module source has changed",
          'The source address was changed since this module was installed. Run "tofu init" to install all modules required by this configuration.',
          subject,
        ),
      );
    }
    const required = req.versionConstraint.required;
    if (required.length > 0 && !record.version) {
      diagnostics.push(
        errorDiag(
          "Module version requirements have changed",
          'The version requirements have changed since this module was installed and the installed version is no longer acceptable. Run "tofu init" to install all modules required by this configuration.',
          subject,
        ),
      );
    }
    if (record.version && !versionMeets(record.version, required)) {
      diagnostics.push(
        errorDiag(
          "Module version requirements have changed",
          `The version requirements have changed since this module was installed and the installed version (${versionString(record.version)}) is no longer acceptable. Run "tofu init" to install all modules required by this configuration.`,
          subject,
        ),
      );
    }
    const dir = joinPath(this.workingDir, record.dir);
    const r = this.parser.loadConfigDir(dir);
    if (!r.module) {
      return none([
        errorDiag(
          "Module not installed",
          `This module's local cache directory ${record.dir} could not be read. Run "tofu init" to install all modules required by this configuration.`,
          req.callRange,
        ),
      ]);
    }
    diagnostics.push(...r.diagnostics);
    return { module: r.module, version: record.version, diagnostics };
  }
}
