// `terrace providers [options] [DIR]`: the provider requirements of every module of the
// configuration as a tree, and those of the state, as `tofu providers` prints them. `-json` is our
// extension: the same requirements plus the static provider-instance map the web UI draws.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { isIgnoredFile, configFileExt, moduleSourceString } from "../configs/index.js";
import type { VariableArg } from "../configs/inputvars/index.js";
import { buildProviderMap, providerRequirementsByModule, type ModuleRequirements, type ProviderMap } from "../configs/providermap/index.js";
import { diagnosticToJSON, errorDiag, renderDiagnostic, type Diagnostic, type JSONDiagnostic } from "../hcl/index.js";
import { parseVersionConstraints, versionConstraintsString, type VersionConstraint } from "../versions/index.js";
import type { Command, CommandIO } from "./io.js";
import { Meta } from "./meta.js";
import { View } from "./view.js";

const HELP = `Usage: terrace [global options] providers [options] [DIR]

  Prints out a tree of modules in the referenced configuration annotated with
  their provider requirements.

  This provides an overview of all of the provider requirements across all
  referenced modules, as an aid to understanding why particular provider
  plugins are needed and why particular versions are selected.

Subcommands:
    bundled    List the providers bundled with Terrace
    lock       Write out dependency locks for the configured providers
    mirror     Save local copies of all required provider plugins
    schema     Show schemas for the providers used in the configuration

Options:

  -json                 Print the requirements and the provider-instance map
                        (every provider configuration, and which resources and
                        module calls use which of its instances) as JSON.

  -test-directory=path  Set the OpenTofu test directory, defaults to "tests". When set, the
                        test command will search for test files in the current directory and
                        in the one specified by the flag.

  -var 'foo=bar'        Set a value for one of the input variables in the root
                        module of the configuration. Use this option more than
                        once to set more than one variable.

  -var-file=filename    Load variable values from the given file, in addition
                        to the default files terraform.tfvars and *.auto.tfvars.
                        Use this option more than once to include more than one
                        variables file.
`;

interface Options {
  json: boolean;
  noColor: boolean;
  vars: VariableArg[];
  positional: string[];
}

function parseArgs(args: readonly string[]): Options | string {
  const opts: Options = { json: false, noColor: false, vars: [], positional: [] };
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (!a.startsWith("-") || a === "-") {
      positional.push(a);
      continue;
    }
    const flag = a.replace(/^--?/, "-");
    const eq = flag.indexOf("=");
    const name = eq >= 0 ? flag.slice(0, eq) : flag;
    if (name === "-json") opts.json = true;
    else if (name === "-no-color") opts.noColor = true;
    else if (name === "-var" || name === "-var-file" || name === "-test-directory") {
      const value = eq >= 0 ? flag.slice(eq + 1) : args[++i];
      if (value === undefined) return `flag needs an argument: ${name}`;
      if (name !== "-test-directory") opts.vars.push({ flag: name, value });
    } else return `flag provided but not defined: ${name}`;
  }
  opts.positional = positional;
  return opts;
}

/** configs.IsEmptyDir: no configuration files (native or JSON, .tf or .tofu) at all. */
function isEmptyDir(dir: string): boolean {
  if (!existsSync(dir)) return true;
  return !readdirSync(dir).some((n) => configFileExt(n) !== "" && !isIgnoredFile(n));
}

/** "~> 5.0, >= 5.1.0": every constraint string of a requirement merged, as getproviders prints them. */
function constraintsString(raw: readonly string[]): string {
  const all: VersionConstraint[] = [];
  for (const s of raw) {
    const r = parseVersionConstraints(s);
    if (r.ok) all.push(...r.value);
  }
  return versionConstraintsString(all);
}

/**
 * xlab/treeprint's rendering: `.` then `├── `/`└── ` branches, and below a branch that is not
 * the last `│` and two no-break spaces (treeprint's own indent), or four spaces.
 */
function requirementsTree(root: ModuleRequirements): string {
  const lines: string[] = ["."];
  const walk = (m: ModuleRequirements, prefix: string): void => {
    const items: Array<{ text: string; child?: ModuleRequirements }> = [
      ...m.requirements.map((r) => {
        const v = constraintsString(r.versionConstraints);
        return { text: `provider[${r.provider}]${v !== "" ? ` ${v}` : ""}` };
      }),
      ...m.children.map((c) => ({ text: `module.${c.name}`, child: c })),
    ];
    items.forEach((item, i) => {
      const last = i === items.length - 1;
      lines.push(`${prefix}${last ? "└── " : "├── "}${item.text}`);
      if (item.child) walk(item.child, prefix + (last ? "    " : "│\u00a0\u00a0 "));
    });
  };
  walk(root, "");
  return lines.join("\n") + "\n";
}

/** The providers the current state's resources were last managed by (state.ProviderRequirements), read through the configured backend. */
async function stateProviders(meta: Meta): Promise<{ providers: string[]; diagnostics: Diagnostic[] }> {
  const r = await meta.readState();
  if (!r.read) return { providers: [], diagnostics: r.diagnostics };
  const found = new Set<string>();
  for (const rs of r.read.state.allResources()) if (rs.providerConfig) found.add(rs.providerConfig.provider.toString());
  return { providers: [...found].sort(), diagnostics: [] };
}

interface JSONRequirements {
  module: string;
  source: string | null;
  providers: Array<{ provider: string; version_constraints: string }>;
  modules: JSONRequirements[];
}

function requirementsJSON(m: ModuleRequirements, sourceOf: (m: ModuleRequirements) => string | null): JSONRequirements {
  return {
    module: m.name,
    source: sourceOf(m),
    providers: m.requirements.map((r) => ({ provider: r.provider, version_constraints: constraintsString(r.versionConstraints) })),
    modules: m.children.map((c) => requirementsJSON(c, sourceOf)),
  };
}

/** The `-json` document. */
export interface ProvidersJSON {
  format_version: "1.0";
  requirements: JSONRequirements | null;
  state_requirements: string[];
  provider_map: ProviderMap | null;
  diagnostics: JSONDiagnostic[];
}

/** `terrace providers bundled [-json]`: the providers Terrace ships and where their executables are. */
async function bundledCommand(args: readonly string[], io: CommandIO): Promise<number> {
  const { bundledProviders } = await import("./bundled.js");
  const list = bundledProviders().map(({ name, source, version, executable }) => ({ name, source, version, executable }));
  if (args.includes("-json")) {
    io.stdout.write(JSON.stringify(list, null, 2) + "\n");
    return 0;
  }
  for (const p of list) io.stdout.write(`${p.source} v${p.version}\n  ${p.executable}\n`);
  return 0;
}

export const providersCommand: Command = async (args, io) => {
  // Subcommands, each in its own module.
  switch (args[0]) {
    case "bundled":
      return bundledCommand(args.slice(1), io);
    case "lock":
      return (await import("./providers_lock.js")).providersLockCommand(args.slice(1), io);
    case "mirror":
      return (await import("./providers_mirror.js")).providersMirrorCommand(args.slice(1), io);
    case "schema":
      return (await import("./providers_schema.js")).providersSchemaCommand(args.slice(1), io);
  }
  if (args.includes("-help") || args.includes("--help") || args.includes("-h")) {
    io.stdout.write(HELP);
    return 0;
  }
  const opts = parseArgs(args);
  if (typeof opts === "string") {
    io.stderr.write(`Error parsing command-line flags: ${opts}\n\n${HELP}`);
    return 1;
  }
  // tofu's modulePath: the help still says [DIR], but -chdir is the only way to choose the directory.
  if (opts.positional.length > 0) {
    io.stderr.write("Too many command line arguments. Did you mean to use -chdir?\n");
    return 1;
  }
  const dir = io.cwd;
  // Module sources and provider for_each may come from variables: evaluated statically from
  // -var, -var-file, the environment and the automatic variables files (no prompts).
  const view = new View(io, !opts.noColor);
  const meta = new Meta({ ...io, cwd: dir }, view, { vars: opts.vars, input: false });
  const renderSources = () => view.sources;
  const show = (diags: readonly Diagnostic[]): void => {
    for (const d of diags) {
      const text = renderDiagnostic(d, renderSources(), { width: 78, rule: !opts.noColor }) + (opts.noColor ? "\n" : "");
      (d.severity === "error" ? io.stderr : io.stdout).write(text);
    }
  };
  const fail = (diags: readonly Diagnostic[]): number => {
    if (opts.json) {
      const doc: ProvidersJSON = { format_version: "1.0", requirements: null, state_requirements: [], provider_map: null, diagnostics: diags.map((d) => diagnosticToJSON(d, renderSources())) };
      io.stdout.write(JSON.stringify(doc, null, 2) + "\n");
    } else show(diags);
    return 1;
  };

  if (isEmptyDir(dir)) {
    return fail([errorDiag("No configuration files", `The directory ${dir} contains no OpenTofu configuration files.`)]);
  }
  const loaded = await meta.loadConfig();
  const diags: Diagnostic[] = [...loaded.diagnostics];
  if (!loaded.config || diags.some((d) => d.severity === "error")) return fail(diags);
  const config = loaded.config;

  const state = await stateProviders(meta);
  diags.push(...state.diagnostics);
  if (state.diagnostics.some((d) => d.severity === "error")) return fail(diags);
  const reqs = providerRequirementsByModule(config);

  if (opts.json) {
    const doc: ProvidersJSON = {
      format_version: "1.0",
      requirements: requirementsJSON(reqs, (m) => (m.sourceAddr ? moduleSourceString(m.sourceAddr) : null)),
      state_requirements: state.providers,
      provider_map: buildProviderMap(config, { sources: loaded.loader.parser.sources }),
      diagnostics: diags.map((d) => diagnosticToJSON(d, renderSources())),
    };
    io.stdout.write(JSON.stringify(doc, null, 2) + "\n");
    return 0;
  }

  io.stdout.write("\nProviders required by configuration:\n");
  io.stdout.write(requirementsTree(reqs) + "\n");
  if (state.providers.length > 0) {
    io.stdout.write("Providers required by state:\n\n");
    for (const p of state.providers) io.stdout.write(`    provider[${p}]\n\n`);
  }
  show(diags);
  return 0;
};
