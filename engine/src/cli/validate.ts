// `terrace validate [-json] [-no-color] [DIR]`: checks a configuration as `tofu validate` does
// (OpenTofu's command/validate.go and views/validate.go): the whole module tree is loaded (modules
// that are not local need `terrace init` first), every problem is reported in one run, and the
// result is "Success! The configuration is valid." or the diagnostics, exit status 0 or 1.
// `-json` prints tofu's format: format_version "1.0", valid, error_count, warning_count and the
// JSON diagnostics with ranges and snippets.
//
// What is checked: every block's decoding, provider requirements against the lock file, every
// reference (undeclared variables, locals, resources and modules; count/each/self/path/terraform
// misuse; instance keys), and then provider, resource and data source bodies against their
// providers' schemas, the providers' own Validate* calls and the lifecycle block's attribute
// paths: all of it is core's Context.validate, which starts the providers as `tofu validate` does.
//
// DIR works like tofu's global `-chdir=DIR`: it is the working directory.
import os from "node:os";
import path from "node:path";
import type { Config } from "../configs/index.js";
import { diagnosticToJSON, hasErrors, type Diagnostic } from "../hcl/index.js";
import { Locks, devOverrides, devOverridesWarning, loadCLIConfig, loadLocksFromFile, LOCK_FILE_PATH } from "../providers/index.js";
import { parseFlags, parseViewArgs } from "./args.js";
import { goJSONEscape } from "./backend.js";
import { configProviderRequirements } from "./provider_requirements.js";
import type { Command } from "./io.js";
import { Meta, VAR_FLAGS, VAR_FLAGS_HELP } from "./meta.js";
import { NodeFunctionFileSystem } from "./function-fs.js";
import { Context, type DeprecationWarningLevel } from "../core/index.js";
import { wordWrap } from "../plans/index.js";
import { View } from "./view.js";

const HELP = `Usage: terrace [global options] validate [options] [DIR]

  Validate the configuration files in a directory, referring only to the
  configuration and not accessing any remote services such as remote state,
  provider APIs, etc.

  Validate runs checks that verify whether a configuration is syntactically
  valid and internally consistent, regardless of any provided variables or
  existing state. It is thus primarily useful for general verification of
  reusable modules, including correctness of attribute names and value types.

  It is safe to run this command automatically, for example as a post-save
  check in a text editor or as a test step for a re-usable module in a CI
  system.

  Validation requires an initialized working directory with any referenced
  plugins and modules installed. To initialize a working directory for
  validation without accessing any configured backend, use:
      terrace init -backend=false

  To verify configuration in the context of a particular run (a particular
  target workspace, input variable values, etc), use the 'terrace plan'
  command instead, which includes an implied validation check.

  DIR, when given, is used as the working directory (like tofu's -chdir=DIR).

Options:

  -json                 Produce output in a machine-readable JSON format,
                        suitable for use in text editor integrations and other
                        automated systems. Always disables color.

  -no-color             If specified, output won't contain any color.

  -no-tests             If specified, OpenTofu will not validate test files.

  -test-directory=path  Set the OpenTofu test directory, defaults to "tests".

${VAR_FLAGS_HELP}`;

/**
 * The diagnostics of validating the configuration in the Meta's working directory. Static
 * evaluation (module sources from variables) sees -var, -var-file, the environment and the
 * automatic variables files; there are no prompts.
 */
export async function validateWorkingDir(meta: Meta, deprecationWarnings: DeprecationWarningLevel = "all"): Promise<{ diagnostics: Diagnostic[] }> {
  const workingDir = meta.workingDir;
  const env = meta.io.env;
  const loaded = await meta.loadConfig();
  const diagnostics = [...loaded.diagnostics];
  if (hasErrors(diagnostics) || !loaded.config) return { diagnostics };

  const cli = await loadCLIConfig({ env, homeDir: env.HOME || os.homedir(), cwd: workingDir });
  const overrides = devOverrides(cli.config);
  const deps = await checkConfigDependencies(loaded.config, workingDir, overrides);
  diagnostics.push(...deps);
  if (hasErrors(deps)) return { diagnostics };

  const { providerFactory } = await import("./plan.js");
  const context = new Context({ providers: providerFactory(workingDir, env), functionFS: new NodeFunctionFileSystem(workingDir), cwd: workingDir, deprecationWarnings });
  diagnostics.push(...(await context.validate(loaded.config)).diagnostics);
  // Validating with dev overrides in effect may not match a released provider; say so.
  if (overrides.size > 0) diagnostics.push(devOverridesWarning(overrides));
  return { diagnostics };
}

/**
 * tofu's checkConfigDependencies: every provider the configuration needs must be available —
 * built in, supplied by a development override, or selected in the dependency lock file.
 */
async function checkConfigDependencies(config: Config, workingDir: string, overrides: ReadonlyMap<string, unknown>): Promise<Diagnostic[]> {
  const reqs = configProviderRequirements(config);
  if (hasErrors(reqs.diagnostics)) return reqs.diagnostics;
  const lockFile = await loadLocksFromFile(path.join(workingDir, LOCK_FILE_PATH));
  const locks = lockFile.missing ? new Locks() : lockFile.locks;
  const diagnostics: Diagnostic[] = lockFile.missing ? [] : [...lockFile.diagnostics];
  for (const r of [...reqs.requirements.values()].sort((a, b) => (a.provider.lessThan(b.provider) ? -1 : 1))) {
    const p = r.provider;
    if (p.isBuiltIn()) {
      if (p.type === "terraform") continue;
      diagnostics.push({
        severity: "error",
        summary: "Missing required provider",
        detail: `This configuration requires built-in provider ${p.toString()}, but that provider isn't available in this OpenTofu version.`,
      });
      continue;
    }
    if (overrides.has(p.toString()) || locks.provider(p)) continue;
    diagnostics.push({
      severity: "error",
      summary: "Missing required provider",
      detail: `This configuration requires provider ${p.toString()}, but that provider isn't available. You may be able to install it automatically by running:\n  terrace init`,
    });
  }
  return diagnostics;
}

interface ValidateOutput {
  format_version: "1.0";
  valid: boolean;
  error_count: number;
  warning_count: number;
  diagnostics: ReturnType<typeof diagnosticToJSON>[];
}

export const validateCommand: Command = async (args, io) => {
  // The global view options come out first, wherever they are (arguments.ParseView).
  const { view: viewArgs, rest } = parseViewArgs(args);
  const p = parseFlags(rest, { bool: ["json", "no-color", "no-tests"], string: ["test-directory"], multi: VAR_FLAGS });
  const noColor = viewArgs.noColor || rest.includes("--no-color");
  const early = new View(io, !noColor);
  if (typeof p === "string" || p.positional.length > 1) {
    early.diagnostics([
      typeof p === "string"
        ? { severity: "error", summary: "Failed to parse command-line flags", detail: p }
        : { severity: "error", summary: "Too many command line arguments", detail: "Expected at most one positional argument." },
    ]);
    io.stderr.write("\nFor more help on using this command, run:\n  terrace validate -help\n");
    return 1;
  }
  if (p.bools.get("help")) {
    io.stdout.write(HELP);
    return 0;
  }
  const json = p.bools.get("json") ?? false;
  const view = new View(io, !json && !viewArgs.noColor && !(p.bools.get("no-color") ?? false), false, viewArgs);
  const workingDir = path.resolve(io.cwd, p.positional[0] ?? ".");
  const { diagnostics } = await validateWorkingDir(Meta.fromFlags({ ...io, cwd: workingDir }, view, p), viewArgs.deprecation);

  if (json) {
    const out: ValidateOutput = { format_version: "1.0", valid: true, error_count: 0, warning_count: 0, diagnostics: [] };
    for (const d of diagnostics) {
      out.diagnostics.push(diagnosticToJSON(d, view.sources));
      if (d.severity === "error") {
        out.error_count++;
        out.valid = false;
      } else out.warning_count++;
    }
    io.stdout.write(`${goJSONEscape(JSON.stringify(out, null, 2))}\n`);
    return hasErrors(diagnostics) ? 1 : 0;
  }
  // ValidateHuman.Results: the message ends in "\n" and is printed with Println (so a blank line
  // follows), coloured and then word-wrapped to the output's width, as tofu does.
  const columns = io.stdout.isTTY === true ? ((io.stdout as { columns?: number }).columns ?? 78) : 78;
  const result = (text: string) => view.println(wordWrap(view.color(`[green][bold]Success![reset] ${text}\n`), columns));
  if (diagnostics.length === 0) {
    result("The configuration is valid.");
  } else {
    view.diagnostics(diagnostics);
    if (!hasErrors(diagnostics)) result("The configuration is valid, but there were some validation warnings as shown above.");
  }
  return hasErrors(diagnostics) ? 1 : 0;
};
