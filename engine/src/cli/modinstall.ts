// Module installation for `init` and `get` (OpenTofu's initwd.ModuleInstaller, local sources
// only): the tree is walked with static evaluation (module sources from variables, asked for once
// when missing), local modules are recorded in .terraform/modules/modules.json, and a registry or
// remote module must already be installed there (Terrace downloads nothing).
import {
  applyStaticModuleCall,
  buildConfig,
  manifestForConfig,
  manifestKey,
  moduleSourceString,
  manifestDir,
  manifestPath,
  readManifestForDir,
  rootModuleCall,
  staticModuleWalker,
  writeManifestForDir,
  type ConfigFS,
  type Loader,
  type ModuleManifest,
  type ModuleRequest,
  type ModuleWalker,
  type RootModuleInputs,
} from "../configs/index.js";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";

export interface InstallModulesOptions {
  /** A loader over the working directory (the root module is "."). */
  readonly loader: Loader;
  readonly fs: ConfigFS;
  readonly inputs: RootModuleInputs;
  readonly workspace: string;
  readonly workingDir: string;
  /** -upgrade / -update: the previous manifest is not reused. */
  readonly upgrade: boolean;
  /**
   * installErrsOnly (`get`): errors in the configuration itself become warnings and the walk goes
   * on; only a module that cannot be installed is an error.
   */
  readonly installErrsOnly: boolean;
}

export interface InstallModulesResult {
  /** The hooks' "- key in dir" line for each local module newly recorded. */
  readonly lines: string[];
  readonly diagnostics: Diagnostic[];
}

/** tfdiags.OverrideAll(diags, Warning): the same diagnostics as warnings. */
function asWarnings(diags: readonly Diagnostic[]): Diagnostic[] {
  return diags.map((d) => ({ ...d, severity: "warning" }));
}

export async function installModules(o: InstallModulesOptions): Promise<InstallModulesResult> {
  const { loader, fs, inputs } = o;
  const previous: ModuleManifest = o.upgrade ? new Map() : readManifestForDir(fs, ".").manifest;
  let installDiags: Diagnostic[] = [];
  let lines: string[] = [];
  const base = loader.moduleWalker();
  const walker: ModuleWalker = (req) => {
    const key = manifestKey(req.path);
    const src = req.sourceAddr;
    // A source that static evaluation could not resolve was reported with the call.
    if (!src) return { module: undefined, version: undefined, diagnostics: [] };
    const record = previous.get(key);
    const source = moduleSourceString(src);
    if (src.kind === "local") {
      const r = base(req);
      if (r.module && (!record || record.sourceAddr !== source)) lines.push(`- ${key} in ${r.module.sourceDir}`);
      return r;
    }
    // Installed earlier (by hand, or by tofu) and still matching: use it as it is.
    if (record && record.sourceAddr === source && fs.isDir(record.dir)) return base(req);
    installDiags.push(notInstalled(req, source, src.kind));
    return { module: undefined, version: undefined, diagnostics: [] };
  };
  // Module sources may come from variables (static evaluation); a variable it needs is asked
  // for, and the walk repeated with the answer.
  const staticCall = rootModuleCall(inputs, ".", o.workspace, { cwd: o.workingDir });
  let configDiags: Diagnostic[] = [];
  let built: ReturnType<typeof buildConfig> | undefined;
  for (;;) {
    installDiags = [];
    lines = [];
    const root = loader.parser.loadConfigDir(".");
    if (!root.module) return { lines: [], diagnostics: root.diagnostics };
    const applied = applyStaticModuleCall(root.module, staticCall);
    configDiags = applied.diagnostics;
    if (!inputs.hasPending() && hasErrors(applied.diagnostics) && !o.installErrsOnly) return { lines: [], diagnostics: applied.diagnostics };
    built = buildConfig(root.module, staticModuleWalker(walker));
    if (!inputs.hasPending()) break;
    await inputs.promptPending();
  }
  const diagnostics: Diagnostic[] = [];
  if (o.installErrsOnly) {
    // Installation errors stop `get`; the configuration's own problems are only warnings here
    // and are reported as errors by the commands that load it.
    if (hasErrors(installDiags)) return { lines, diagnostics: [...installDiags, ...configDiags, ...built.diagnostics] };
    diagnostics.push(...asWarnings([...configDiags, ...built.diagnostics]));
  }
  // The manifest records what could be installed, even when something else failed.
  const manifest = manifestForConfig(built.config, ".", previous);
  diagnostics.push(...installDiags, ...writeManifestForDir(fs, ".", manifest));
  return { lines, diagnostics };
}

/** A non-local module that is not installed: Terrace has no network to fetch it. */
function notInstalled(req: ModuleRequest, source: string, kind: "registry" | "remote"): Diagnostic {
  const at = `${req.callRange.filename}:${req.callRange.start.line}`;
  const how = `Terrace does not download modules (it has no network access). Install a copy of the module under ${manifestDir()} and record it in ${manifestPath(".")}, or use a local source path such as "./modules/${req.name}".`;
  const what = kind === "registry" ? "registry" : "remote";
  return errorDiag(
    "Module not installed",
    `Module ${JSON.stringify(req.name)} (${at}) has the ${what} source ${JSON.stringify(source)}, which is not installed. ${how}`,
    req.callRange,
  );
}
