// `terrace init [options]`: prepares a working directory as `tofu init` does (OpenTofu's
// command/init.go, meta_backend.go, meta_config.go), with tofu's messages, flags and exit codes:
// the backend (`local` or `http`, recorded in .terraform/terraform.tfstate), local modules
// (recorded in .terraform/modules/modules.json), and providers through the installer (bundled
// providers, filesystem mirrors, the lock file). Nothing is downloaded: a registry or remote
// module must already be installed, and providers come from local mirrors only.
//
// DIR works like tofu's global `-chdir=DIR`: it is the working directory for everything.
import os from "node:os";
import path from "node:path";
import { readFileSync, rmSync } from "node:fs";
import {
  applyStaticModuleCall,
  dataDir,
  loadConfigWithRootInputs,
  Loader,
  RootModuleInputs,
  rootModuleCall,
  withRootInputs,
  type StaticEvaluator,
  type Config,
  type ConfigFS,
  type Module,
} from "../configs/index.js";
import { collectVariableValues, type VariableArg, type VariablePrompter } from "../configs/inputvars/index.js";
import { installableBundledProviders } from "./bundled.js";
import { installModules } from "./modinstall.js";
import { currentWorkspace } from "./workspace.js";
import { terraceBackend, validateTerraceConfig } from "./terrace_backend.js";
import { errorDiag, hasErrors, renderDiagnostic, type Diagnostic } from "../hcl/index.js";
import {
  BundledProviderSource,
  FilesystemMirrorSource,
  LOCK_FILE_PATH,
  Locks,
  MultiSource,
  ProviderCacheDir,
  currentPlatform,
  devOverrides,
  ensureProviderVersions,
  loadCLIConfig,
  loadLocksFromFile,
  packageLocationString,
  platformString,
  providerSourceForCLIConfig,
  saveLocksToFile,
  type DevOverride,
  type ProviderSource,
} from "../providers/index.js";
import { unmanagedProviders } from "./devoverrides.js";
import { versionConstraintsString, versionString } from "../versions/index.js";
import { parseCommandFlags } from "./args.js";
import {
  backendConfigHash,
  backendConfigsEqual,
  backendSupported,
  decodeBackendConfig,
  missingRequiredArguments,
  readBackendState,
  unsupportedBackendDiagnostic,
  writeBackendState,
  backendStateFile,
} from "./backend.js";
import type { Command, CommandIO } from "./io.js";
import { nodeConfigFS, nodeVariableFS, isDirectory } from "./nodefs.js";
import { engineVersion } from "./version.js";
import { Prompter } from "./prompt.js";
import { legacyUI, type LegacyUI } from "./legacy_ui.js";
import { inputAllowedByEnv, runningInAutomation } from "./meta.js";
import { View } from "./view.js";
import { configProviderRequirements } from "./provider_requirements.js";

const HELP = `Usage: terrace [global options] init [options]

  Initialize a new or existing OpenTofu working directory by creating
  initial files, loading any remote state, downloading modules, etc.

  This is the first command that should be run for any new or existing
  OpenTofu configuration per machine. This sets up all the local data
  necessary to run OpenTofu that is typically not committed to version
  control.

  This command is always safe to run multiple times. Though subsequent runs
  may give errors, this command will never delete your configuration or
  state. Even so, if you have important information, please back it up prior
  to running this command, just in case.

  DIR, when given, is used as the working directory (like tofu's -chdir=DIR).

Options:

  -backend=false          Disable backend or cloud backend initialization
                          for this configuration and use what was previously
                          initialized instead.

                          aliases: -cloud=false

  -backend-config=path    Configuration to be merged with what is in the
                          configuration file's 'backend' block. This can be
                          either a path to an HCL file with key/value
                          assignments (same format as terraform.tfvars) or a
                          'key=value' format, and can be specified multiple
                          times. The backend type must be in the configuration
                          itself.

  -get=false              Disable downloading modules for this configuration.

  -input=false            Disable interactive prompts. Note that some actions may
                          require interactive prompts and will error if input is
                          disabled.

  -no-color               If specified, output won't contain any color.

  -json                   If specified, machine readable output will be
                          printed in JSON format.

  -plugin-dir             Directory containing plugin binaries. This overrides all
                          default search paths for plugins, and prevents the
                          automatic installation of plugins. This flag can be used
                          multiple times.

  -reconfigure            Reconfigure a backend, ignoring any saved
                          configuration.

  -migrate-state          Reconfigure a backend, and attempt to migrate any
                          existing state. (Not supported by Terrace yet.)

  -upgrade                Install the latest module and provider versions
                          allowed within configured constraints, overriding the
                          default behavior of selecting exactly the version
                          recorded in the dependency lockfile.

  -lockfile=MODE          Set a dependency lockfile mode.
                          Currently only "readonly" is valid.

  -var 'foo=bar'          Set a value for one of the input variables in the root
                          module of the configuration. Use this option more than
                          once to set more than one variable.

  -var-file=filename      Load variable values from the given file, in addition
                          to the default files terraform.tfvars and *.auto.tfvars.
                          Use this option more than once to include more than one
                          variables file.
`;

const FLAGS = {
  bool: [
    "backend",
    "cloud",
    "get",
    "input",
    "lock",
    "upgrade",
    "reconfigure",
    "migrate-state",
    "force-copy",
    "no-color",
    "compact-warnings",
    "consolidate-warnings",
    "consolidate-errors",
    "ignore-remote-version",
    "json",
  ],
  string: ["lockfile", "lock-timeout", "from-module", "test-directory"],
  multi: ["backend-config", "var", "var-file", "plugin-dir"],
} as const;

export interface InitOptions {
  backend: boolean;
  backendFlagSet: boolean;
  get: boolean;
  input: boolean;
  upgrade: boolean;
  reconfigure: boolean;
  migrateState: boolean;
  noColor: boolean;
  /** `-json`: every message as a JSON line on stdout (tofu 1.7+). */
  json: boolean;
  lockfile: string;
  fromModule: string;
  backendConfig: string[];
  vars: VariableArg[];
  pluginDirs: string[];
}

function parseInitArgs(args: readonly string[]): { options?: InitOptions; help?: boolean; diagnostics: Diagnostic[] } {
  const p = parseCommandFlags(args, FLAGS);
  if (typeof p === "string") return { diagnostics: [errorDiag("Failed to parse command-line flags", p)] };
  if (p.bools.get("help")) return { help: true, diagnostics: [] };
  const diagnostics: Diagnostic[] = [];
  const backendSet = p.bools.has("backend");
  const cloudSet = p.bools.has("cloud");
  if (backendSet && cloudSet) {
    diagnostics.push(errorDiag("Wrong combination of options", "The -backend and -cloud options are aliases of one another and mutually-exclusive in their use"));
  }
  const reconfigure = p.bools.get("reconfigure") ?? false;
  const migrateState = (p.bools.get("migrate-state") ?? false) || (p.bools.get("force-copy") ?? false);
  if (reconfigure && migrateState) {
    diagnostics.push(errorDiag("Wrong combination of options", "The -migrate-state and -reconfigure options are mutually-exclusive"));
  }
  // The working directory is chosen with -chdir; init stopped taking a DIR argument before OpenTofu existed.
  if (p.positional.length > 0) {
    diagnostics.push(errorDiag("Unexpected argument", "Too many command line arguments. Did you mean to use -chdir?"));
  }
  const options: InitOptions = {
    backend: p.bools.get("backend") ?? p.bools.get("cloud") ?? true,
    backendFlagSet: backendSet || cloudSet,
    get: p.bools.get("get") ?? true,
    input: p.bools.get("input") ?? true,
    upgrade: p.bools.get("upgrade") ?? false,
    reconfigure,
    migrateState,
    noColor: p.bools.get("no-color") ?? false,
    json: p.bools.get("json") ?? false,
    lockfile: p.strings.get("lockfile") ?? "",
    fromModule: p.strings.get("from-module") ?? "",
    backendConfig: p.multi.filter((m) => m.name === "backend-config").map((m) => m.value),
    vars: p.multi.filter((m) => m.name === "var" || m.name === "var-file").map((m) => ({ flag: m.name === "var" ? ("-var" as const) : ("-var-file" as const), value: m.value })),
    pluginDirs: p.multi.filter((m) => m.name === "plugin-dir").map((m) => m.value),
  };
  return { options, diagnostics };
}

// ---- The run ----


class InitRun {
  readonly ui: LegacyUI;
  readonly view: View;
  readonly fs: ConfigFS;
  /** Set once something was printed, so the success message gets its blank line. */
  header = false;
  /** `terraform.workspace` for static evaluation: the selected workspace. */
  readonly workspace: string;

  constructor(
    readonly io: CommandIO,
    readonly o: InitOptions,
    readonly workingDir: string,
  ) {
    this.ui = legacyUI(io, { json: o.json, color: !o.noColor });
    this.view = this.ui.view;
    this.fs = nodeConfigFS(workingDir);
    this.workspace = currentWorkspace({ ...io, cwd: workingDir }).name;
  }

  /** Prompts on stdin/stdout as tofu's UIInput does. */
  prompter(): VariablePrompter | undefined {
    return this.o.input && inputAllowedByEnv(this.io.env) ? new Prompter(this.view).variables() : undefined;
  }

  fail(diags: readonly Diagnostic[], configError = false): number {
    if (configError) {
      this.ui.error(
        "\n[reset]OpenTofu encountered problems during initialization, including problems\nwith the configuration, described below.\n\nThe OpenTofu configuration must be valid before initialization so that\nOpenTofu can determine which modules and providers need to be installed.",
      );
    }
    this.ui.diagnostics(diags);
    return 1;
  }

  async run(): Promise<number> {
    const o = this.o;
    const diags: Diagnostic[] = [];
    if (o.fromModule !== "") {
      return this.fail([
        errorDiag(
          "Option not supported",
          `The -from-module option copies a module from ${JSON.stringify(o.fromModule)} into the working directory, which needs module downloads; Terrace does not download modules. Copy the module's files into this directory yourself, then run "terrace init".`,
        ),
      ]);
    }

    // An empty directory (or none) has nothing to initialise.
    const loader = new Loader({ fs: this.fs, workingDir: "." });
    const files = loader.parser.configDirFiles(".");
    if (!isDirectory(this.workingDir) || files.primary.length + files.override.length === 0) {
      this.ui.output(
        "[reset][bold]OpenTofu initialized in an empty directory![reset]\n\nThe directory has no OpenTofu configuration files. You may begin working\nwith OpenTofu immediately by creating OpenTofu configuration files.",
      );
      return 0;
    }

    const early = loader.parser.loadConfigDir(".");
    this.view.addSources(loader.parser.sources);
    const rootEarly = early.module;
    if (!rootEarly || hasErrors(early.diagnostics)) return this.fail([...diags, ...early.diagnostics], true);

    // Values for the root module's variables, which static evaluation (module sources, backend
    // configuration) reads; a malformed -var or an unreadable -var-file is an error here.
    const vars = collectVariableValues({ env: this.io.env, args: o.vars, fs: nodeVariableFS(this.workingDir), dir: "." });
    this.view.addSources(vars.sources);
    diags.push(...vars.diagnostics);
    if (hasErrors(vars.diagnostics)) return this.fail(diags);
    // A required variable that static evaluation needs is asked for once (unless -input=false).
    const inputs = new RootModuleInputs(vars.values, this.prompter());
    // The root module with its static call applied (loadSingleModule): module sources and
    // provider for_each from variables must resolve before anything is initialised.
    const staticCall = rootModuleCall(inputs, ".", this.workspace, { cwd: this.workingDir });
    const applied = await withRootInputs(inputs, () => applyStaticModuleCall(rootEarly, staticCall));
    if (hasErrors(applied.diagnostics)) return this.fail([...diags, ...applied.diagnostics], true);

    let backendDiags: Diagnostic[] = [];
    if (rootEarly.cloudConfig && o.backend) {
      this.ui.output("\n[reset][bold]Initializing cloud backend...");
      this.header = true;
      backendDiags = [
        errorDiag(
          "Cloud backend not supported",
          'Terrace does not support the "cloud" block. Use a backend "terrace" (or "http") block pointing at a Terrace server, or "local", instead.',
          rootEarly.cloudConfig.declRange,
        ),
      ];
    } else if (o.backend) {
      backendDiags = await this.initBackend(rootEarly, applied.evaluator, inputs);
    }

    if (o.get) {
      const r = await this.getModules(loader, inputs);
      diags.push(...r.diagnostics);
      if (hasErrors(r.diagnostics)) return this.fail(diags);
    }

    // With the modules in place, the whole tree.
    const full = new Loader({ fs: this.fs, workingDir: "." });
    const loaded = await loadConfigWithRootInputs(full, ".", inputs, this.workspace, { cwd: this.workingDir });
    this.view.addSources(full.parser.sources);
    diags.push(...backendDiags);
    if (hasErrors(backendDiags)) return this.fail(diags);
    diags.push(...loaded.diagnostics);
    if (hasErrors(loaded.diagnostics) || !loaded.config) return this.fail(diags, true);

    const providers = await this.getProviders(loaded.config);
    diags.push(...providers.diagnostics);
    if (providers.abort || hasErrors(providers.diagnostics)) return this.fail(diags);

    if (this.header) this.ui.output("");
    this.ui.diagnostics(diags);
    this.ui.output("[reset][bold][green]OpenTofu has been successfully initialized![reset][green]");
    if (!runningInAutomation(this.io.env)) {
      this.ui.output(
        '[reset][green]\nYou may now begin working with OpenTofu. Try running "terrace plan" to see\nany changes that are required for your infrastructure. All OpenTofu commands\nshould now work.\n\nIf you ever set or change modules or backend configuration for OpenTofu,\nrerun this command to reinitialize your working directory. If you forget, other\ncommands will detect it and remind you to do so if necessary.',
      );
    }
    return 0;
  }

  // ---- Backend (meta_backend.go) ----

  private async initBackend(root: Module, evaluator: StaticEvaluator, inputs: RootModuleInputs): Promise<Diagnostic[]> {
    const o = this.o;
    this.ui.output("\n[reset][bold]Initializing the backend...");
    this.header = true;
    const diags: Diagnostic[] = [];
    const saved = readBackendState(this.workingDir);
    diags.push(...saved.diagnostics);
    if (hasErrors(diags)) return diags;
    const s = o.reconfigure ? undefined : saved.state;
    const c = root.backend;

    const migrateOrReconfigure = errorDiag(
      "Backend configuration changed",
      'A change in the backend configuration has been detected, which may require migrating existing state.\n\nIf you wish to attempt automatic migration of the state, use "terrace init -migrate-state".\nIf you wish to store the current configuration with no changes to the state, use "terrace init -reconfigure".',
    );
    const noMigration = (from: string, to: string) =>
      errorDiag(
        "State migration not supported",
        `The -migrate-state option asks Terrace to copy the existing state from the ${JSON.stringify(from)} backend to the ${JSON.stringify(to)} backend, which Terrace cannot do yet. Copy the state yourself if you need it, then run "terrace init -reconfigure" to use the new backend configuration.`,
      );

    if (!c) {
      if (o.backendConfig.length > 0) {
        diags.push({
          severity: "warning",
          summary: "Missing backend configuration",
          detail:
            '-backend-config was used without a "backend" block in the configuration.\n\nIf you intended to override the default local backend configuration,\nno action is required, but you may add an explicit backend block to your\nconfiguration to clear this warning:\n\nterraform {\n  backend "local" {}\n}\n\nHowever, if you intended to override a defined backend, please verify that\nthe backend configuration is present and valid.\n',
        });
      }
      if (saved.state && o.reconfigure) {
        // Forget the previous backend: the working directory now uses local state.
        rmSync(path.resolve(this.workingDir, backendStateFile()), { force: true });
        return diags;
      }
      if (!s) return diags;
      diags.push(o.migrateState ? noMigration(s.type, "local") : migrateOrReconfigure);
      return diags;
    }

    if (!backendSupported(c.type)) {
      diags.push(unsupportedBackendDiagnostic(c));
      return diags;
    }
    const readOverride = (p: string): string | undefined => {
      try {
        return readFileSync(path.resolve(this.workingDir, p), "utf8");
      } catch {
        return undefined;
      }
    };
    const decoded = await withRootInputs(inputs, () => decodeBackendConfig(c, evaluator, o.backendConfig, readOverride));
    this.view.addSources(decoded.sources);
    diags.push(...decoded.diagnostics);
    if (!hasErrors(decoded.diagnostics)) diags.push(...missingRequiredArguments(c, decoded.merged));
    if (c.type === "terrace" && !hasErrors(diags)) {
      // PrepareConfig and Configure: the arguments make sense and a token can be found. The
      // server is not contacted, as for the http backend.
      diags.push(...validateTerraceConfig(decoded.merged));
      if (!hasErrors(diags)) diags.push(...(await terraceBackend(decoded.merged, this.io)).diagnostics);
    }
    if (hasErrors(diags)) return diags;
    const hash = backendConfigHash(c.type, decoded.base);
    const version = engineVersion();

    if (!s) {
      diags.push(...writeBackendState(this.workingDir, c.type, decoded.merged, hash, version));
      if (!hasErrors(diags)) {
        this.ui.output(
          `[reset][green]\nSuccessfully configured the backend ${JSON.stringify(c.type)}! OpenTofu will automatically\nuse this backend unless the backend configuration changes.`,
        );
      }
      return diags;
    }
    if (s.hash === hash && o.backendConfig.length === 0) return diags;
    if (s.type === c.type && backendConfigsEqual(s.config, decoded.merged)) {
      // The same settings, moved between the block and -backend-config: only the hash changes.
      if (s.hash !== hash) diags.push(...writeBackendState(this.workingDir, c.type, decoded.merged, hash, version));
      return diags;
    }
    diags.push(o.migrateState ? noMigration(s.type, c.type) : migrateOrReconfigure);
    return diags;
  }

  // ---- Modules (initwd's module installer, local sources only) ----

  private async getModules(loader: Loader, inputs: RootModuleInputs): Promise<{ diagnostics: Diagnostic[] }> {
    const root = loader.parser.loadConfigDir(".").module as Module;
    if (root.moduleCalls.size === 0) return { diagnostics: [] };
    this.ui.output(this.o.upgrade ? "[reset][bold]Upgrading modules..." : "[reset][bold]Initializing modules...");
    this.header = true;
    const r = await installModules({ loader, fs: this.fs, inputs, workspace: this.workspace, workingDir: this.workingDir, upgrade: this.o.upgrade, installErrsOnly: false });
    for (const line of r.lines) this.ui.info(line);
    this.view.addSources(loader.parser.sources);
    return { diagnostics: r.diagnostics };
  }

  // ---- Providers ----

  private async getProviders(config: Config): Promise<{ abort: boolean; diagnostics: Diagnostic[] }> {
    const o = this.o;
    const diags: Diagnostic[] = [];
    const cliEnv = { env: this.io.env, homeDir: this.io.env.HOME || os.homedir(), cwd: this.workingDir };
    // Its problems were reported when the command started (reportCLIConfigProblems).
    const cli = await loadCLIConfig(cliEnv);
    const overrides: ReadonlyMap<string, DevOverride> = devOverrides(cli.config);

    const reqs = configProviderRequirements(config);
    diags.push(...reqs.diagnostics);
    if (hasErrors(reqs.diagnostics)) return { abort: true, diagnostics: diags };

    const conflicts = new Map<string, string[]>();
    for (const r of reqs.requirements.values()) {
      const p = r.provider;
      if (p.namespace === "hashicorp" || p.namespace === "opentofu") conflicts.set(p.type, [...(conflicts.get(p.type) ?? []), p.forDisplay()]);
      if (p.isLegacy()) {
        diags.push(
          errorDiag(
            "Invalid legacy provider address",
            `This configuration or its associated state refers to the unqualified provider ${JSON.stringify(p.type)}.\n\nYou must complete the Terraform 0.13 upgrade process before upgrading to later versions.`,
          ),
        );
      }
    }
    for (const [type, addrs] of conflicts) {
      if (addrs.length < 2) continue;
      diags.push({
        severity: "warning",
        summary: "Potential provider misconfiguration",
        detail: `OpenTofu has detected multiple providers of type ${type} (${addrs.join(", ")}) which may be a misconfiguration.\n\nIf this is intentional you can ignore this warning`,
      });
    }

    const lockFile = path.join(this.workingDir, LOCK_FILE_PATH);
    const prior = await loadLocksFromFile(lockFile);
    const previousLocks = prior.missing ? new Locks() : prior.locks;
    if (!prior.missing) {
      try {
        this.view.addSources(new Map([[lockFile, readFileSync(lockFile, "utf8")]]));
      } catch {
        // Reported by loadLocksFromFile.
      }
      diags.push(...prior.diagnostics);
    }
    if (hasErrors(diags)) return { abort: true, diagnostics: diags };

    this.ui.output("\n[reset][bold]Initializing provider plugins...");
    this.header = true;
    if (o.upgrade && o.lockfile === "readonly") {
      this.ui.error("The -upgrade flag conflicts with -lockfile=readonly.");
      return { abort: true, diagnostics: diags };
    }

    // Terrace's own providers are tried before any mirror (see cli/bundled.ts).
    const bundled = new BundledProviderSource(installableBundledProviders());
    let source: ProviderSource;
    if (o.pluginDirs.length > 0) {
      source = new MultiSource([
        { source: bundled, include: [], exclude: [] },
        ...o.pluginDirs.map((d) => ({ source: new FilesystemMirrorSource(path.resolve(this.workingDir, d)), include: [], exclude: [] })),
      ]);
    } else {
      const s = await providerSourceForCLIConfig(cli.config, cliEnv, bundled);
      diags.push(...s.diagnostics);
      if (hasErrors(s.diagnostics)) return { abort: true, diagnostics: diags };
      source = s.source;
    }
    const platform = currentPlatform();
    const say = (s: string) => this.ui.info(s);
    const result = await ensureProviderVersions({
      requirements: [...reqs.requirements.values()],
      locks: previousLocks,
      mode: o.upgrade ? "upgrade" : "normal",
      source,
      targetDir: new ProviderCacheDir(path.resolve(this.workingDir, dataDir(), "providers"), platform),
      ...(cli.config.pluginCacheDir !== ""
        ? { globalCacheDir: new ProviderCacheDir(cli.config.pluginCacheDir, platform), globalCacheMayBreakLockFile: cli.config.pluginCacheMayBreakDependencyLockFile }
        : {}),
      devOverrides: overrides,
      unmanaged: unmanagedProviders(this.io.env),
      command: "terrace",
      events: {
        builtInProviderAvailable: (p) => say(`- ${p.forDisplay()} is built in to OpenTofu`),
        queryPackagesBegin: (p, constraints, locked) => {
          if (locked) say(`- Reusing previous version of ${p.forDisplay()} from the dependency lock file`);
          else if (constraints.length > 0) say(`- Finding ${p.forDisplay()} versions matching ${JSON.stringify(versionConstraintsString(constraints))}...`);
          else say(`- Finding latest version of ${p.forDisplay()}...`);
        },
        providerAlreadyInstalled: (p, v, inCache) =>
          say(inCache ? `- Detected previously-installed ${p.forDisplay()} v${versionString(v)} in the shared cache directory` : `- Using previously-installed ${p.forDisplay()} v${versionString(v)}`),
        fetchPackageBegin: (p, v) => say(`- Installing ${p.forDisplay()} v${versionString(v)}...`),
        fetchPackageSuccess: (p, v, dir) => say(`- Installed ${p.forDisplay()} v${versionString(v)} (${dir === undefined ? packageLocationString({ kind: "bundled", hashes: [] }) : "unauthenticated"})`),
        linkFromCacheSuccess: (p, v) => say(`- Using ${p.forDisplay()} v${versionString(v)} from the shared cache directory`),
      },
    });
    diags.push(...result.diagnostics);
    if (hasErrors(result.diagnostics)) return { abort: true, diagnostics: diags };

    const newLocks = result.locks;
    if (!newLocks.equal(previousLocks)) {
      if (o.lockfile === "readonly") {
        const addrs = (l: Locks) =>
          l
            .allProviders()
            .map((x) => x.provider.toString())
            .join("\n");
        if (addrs(newLocks) !== addrs(previousLocks)) {
          diags.push(
            errorDiag(
              "Provider dependency changes detected",
              'Changes to the required provider dependencies were detected, but the lock file is read-only. To use and record these requirements, run "terrace init" without the "-lockfile=readonly" flag.',
            ),
          );
          return { abort: true, diagnostics: diags };
        }
        diags.push({
          severity: "warning",
          summary: "Provider lock file not updated",
          detail:
            'Changes to the provider selections were detected, but not saved in the .terraform.lock.hcl file. To record these selections, run "terrace init" without the "-lockfile=readonly" flag.',
        });
        return { abort: false, diagnostics: diags };
      }
      // Locally computed checksums cover this platform only (no registry gives the others).
      const incomplete: string[] = [];
      for (const inst of result.installed) {
        if (inst.bundled || inst.alreadyInstalled) continue;
        const before = previousLocks.provider(inst.provider);
        const after = newLocks.provider(inst.provider);
        if (!after) continue;
        if (!before || before.hashes.join(",") === after.hashes.join(",")) incomplete.push(inst.provider.forDisplay());
      }
      if (incomplete.length > 0) {
        incomplete.sort();
        const plat = platformString(platform);
        diags.push({
          severity: "warning",
          summary: "Incomplete lock file information for providers",
          detail: `Due to your customized provider installation methods, OpenTofu was forced to calculate lock file checksums locally for the following providers:\n  - ${incomplete.join("\n  - ")}\n\nThe current .terraform.lock.hcl file only includes checksums for ${plat}, so OpenTofu running on another platform will fail to install these providers.\n\nTo calculate additional checksums for another platform, run:\n  terrace providers lock -platform=linux_amd64\n(where linux_amd64 is the platform to generate)`,
        });
      }
      if (previousLocks.empty()) {
        this.ui.output(
          '\nOpenTofu has created a lock file [bold].terraform.lock.hcl[reset] to record the provider\nselections it made above. Include this file in your version control repository\nso that OpenTofu can guarantee to make the same selections by default when\nyou run "terrace init" in the future.',
        );
      } else {
        this.ui.output(
          '\nOpenTofu has made some changes to the provider dependency selections recorded\nin the .terraform.lock.hcl file. Review those changes and commit them to your\nversion control system if they represent changes you intended to make.',
        );
      }
      diags.push(...(await saveLocksToFile(newLocks, lockFile)));
    }
    return { abort: false, diagnostics: diags };
  }
}

export const initCommand: Command = async (args, io) => {
  const parsed = parseInitArgs(args);
  if (parsed.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const noColor = args.includes("-no-color") || args.includes("--no-color");
  if (!parsed.options || hasErrors(parsed.diagnostics)) {
    new View(io, !noColor, true).diagnostics(parsed.diagnostics);
    io.stderr.write(HELP);
    return 1;
  }
  const o = parsed.options;
  const workingDir = io.cwd;
  return new InitRun(io, o, workingDir).run();
};
