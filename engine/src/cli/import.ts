// `terrace import [options] ADDR ID`: OpenTofu's command/import.go with the local backend. The
// address must name a managed resource the configuration declares; the object is imported through
// the provider instance that resource instance binds to (Context.import, core/import.ts) and the
// resulting state is written under the state lock, with the local backend's `.backup`.
import path from "node:path";
import { parseAbsResourceInstanceStr, type AbsResourceInstance } from "../addrs/index.js";
import { descendent, type Config } from "../configs/index.js";
import type { Hooks } from "../core/index.js";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import { State } from "../states/index.js";
import { parseCommandFlags } from "./args.js";
import type { Command, CommandIO } from "./io.js";
import { UIHooks, loadWorkingDir, newContext } from "./plan.js";
import { runFlags } from "./runflags.js";
import { Meta, VAR_FLAGS } from "./meta.js";
import { View } from "./view.js";
import { legacyStateOptions, legacyStatePaths, persistState, withRefreshedState } from "./statecmd.js";
import { lockFlags } from "./workspace.js";

const IMPORT_HELP = `Usage: terrace [global options] import [options] ADDR ID

  Import existing infrastructure into your OpenTofu state.

  This will find and import the specified resource into your OpenTofu
  state, allowing existing infrastructure to come under OpenTofu
  management without having to be initially created by OpenTofu.

  The ADDR specified is the address to import the resource to. Please
  see the documentation online for resource addresses. The ID is a
  resource-specific ID to identify that resource being imported. Please
  reference the documentation for the resource type you're importing to
  determine the ID syntax to use. It typically matches directly to the ID
  that the provider uses.

  This command will not modify your infrastructure, but it will make
  network requests to inspect parts of your infrastructure relevant to
  the resource being imported.

Options:

  -input=false            Disable interactive input prompts.

  -lock=false             Don't hold a state lock during the operation. This is
                          dangerous if others might concurrently run commands
                          against the same workspace.

  -lock-timeout=0s        Duration to retry a state lock.

  -no-color               If specified, output won't contain any color.

  -parallelism=n          Limit the number of concurrent operations.
                          Defaults to 10.

  -var 'foo=bar'          Set a variable in the OpenTofu configuration. This
                          flag can be set multiple times.

  -var-file=foo           Set variables in the OpenTofu configuration from
                          a file. If "terraform.tfvars" or any ".auto.tfvars"
                          files are present, they will be automatically loaded.

  -state and -backup are legacy options supported for the local backend only.
  For more information, see the local backend's documentation.
`;

/** OpenTofu's UiHook lines for `import` (PreImportState, PostImportState) on top of the run's. */
class ImportUIHooks extends UIHooks implements Hooks {
  constructor(private readonly out: View) {
    super(out);
  }

  preImportState(addr: AbsResourceInstance, id: string): void {
    this.out.println(`[reset][bold]${addr.toString()}: Importing from ID ${JSON.stringify(id)}...`);
  }

  postImportState(addr: AbsResourceInstance, typeNames: readonly string[]): void {
    this.out.println(`[reset][bold][green]${addr.toString()}: Import prepared!`);
    for (const t of typeNames) this.out.println(`[reset][green]  Prepared ${t} for import`);
  }
}

/** The view's MissingResourceConfiguration: not a diagnostic, because it carries an example block. */
function missingResourceConfiguration(view: View, addr: AbsResourceInstance): void {
  const res = addr.resource.resource;
  const modulePath = addr.module.isRoot() ? "the root module" : addr.module.toString();
  view.eprintln(
    `[reset][bold][red]Error:[reset][bold] resource address ${JSON.stringify(addr.toString())} does not exist in the configuration.[reset]\n\nBefore importing this resource, please create its configuration in ${modulePath}. For example:\n\nresource ${JSON.stringify(res.type)} ${JSON.stringify(res.name)} {\n  # (resource arguments)\n}\n`,
  );
}

/** The checks of command/import.go between loading the configuration and importing. */
function checkTarget(view: View, config: Config, addr: AbsResourceInstance): boolean {
  const target = descendent(
    config,
    addr.module.steps.map((s) => s.name),
  );
  if (!target) {
    view.diagnostics([
      errorDiag(
        "Import to non-existent module",
        `${addr.module.toString()} is not defined in the configuration. Please add configuration for this module before importing into it.`,
      ),
    ]);
    return false;
  }
  const res = addr.resource.resource;
  if (!target.module.managedResources.has(`${res.type}.${res.name}`)) {
    missingResourceConfiguration(view, addr);
    return false;
  }
  return true;
}

const SYNTAX_HINT = "For information on valid syntax, see:\nhttps://opentofu.org/docs/cli/state/resource-addressing/";

export const importCommand: Command = async (args, io: CommandIO) => {
  const early = new View(io, !args.includes("-no-color"));
  const p = parseCommandFlags(args, {
    bool: ["input", "lock", "no-color", "ignore-remote-version"],
    string: ["lock-timeout", "state", "backup"],
    int: ["parallelism"],
    multi: VAR_FLAGS,
  });
  if (typeof p === "string") {
    early.diagnostics([errorDiag("Failed to parse command-line flags", p)]);
    io.stderr.write("\nFor more help on using this command, run:\n  terrace import -help\n");
    return 1;
  }
  if (p.bools.get("help")) {
    io.stdout.write(IMPORT_HELP);
    return 0;
  }
  const flags = runFlags(p);
  if (p.positional.length !== 2) {
    early.eprintln("[red]The import command expects two arguments.[reset]");
    io.stderr.write(IMPORT_HELP);
    return 1;
  }
  const lock = lockFlags(p);
  if (typeof lock === "string") {
    early.diagnostics([errorDiag("Failed to parse command-line flags", lock)]);
    return 1;
  }
  const view = new View(io, flags.color);
  const [rawAddr, id] = p.positional as [string, string];
  const parsed = parseAbsResourceInstanceStr(rawAddr);
  if (!parsed.result || hasErrors(parsed.diagnostics)) {
    view.diagnostics(parsed.diagnostics);
    view.println(SYNTAX_HINT);
    return 1;
  }
  const addr = parsed.result;
  const mode = addr.resource.resource.mode;
  if (mode !== "managed") {
    const what = mode === "data" ? "a data resource" : "an ephemeral resource";
    view.diagnostics([errorDiag("Invalid target resource address", `A managed resource address is required. Importing into ${what} is not allowed.`)]);
    return 1;
  }

  const workingDir = path.resolve(io.cwd);
  // import loads the configuration (and checks the target against it) before the backend.
  const meta = new Meta(io, view, { vars: flags.vars, input: flags.input });
  const l = await loadWorkingDir(meta, { configFirst: true });
  if (!l.loaded) {
    view.diagnostics(l.diagnostics);
    return 1;
  }
  const loaded = l.loaded;
  if (!checkTarget(view, loaded.config, addr)) return 1;

  const target = {
    open: legacyStateOptions(legacyStatePaths(p)),
    operation: "import",
    lock,
    openFailed: (d: Diagnostic[]) => view.diagnostics(d),
    // The configuration's warnings come out with the refresh's errors, as one list.
    refreshFailed: (d: Diagnostic[]) => view.diagnostics([...l.diagnostics, ...d]),
  };
  return withRefreshedState(meta, view, target, async (store, warnings) => {
    const diagnostics: Diagnostic[] = [...l.diagnostics, ...warnings];
    const c = newContext(io, workingDir, flags, new ImportUIHooks(view), loaded.encryption);
    if (!c.ctx) {
      view.diagnostics([...diagnostics, ...c.diagnostics]);
      return 1;
    }
    const r = await c.ctx.import(loaded.config, store.state() ?? new State(), { targets: [{ addr, id }], variables: loaded.variables });
    diagnostics.push(...r.diagnostics);
    if (hasErrors(diagnostics)) {
      view.diagnostics(diagnostics);
      return 1;
    }
    const saved = await persistState(store, r.state);
    if (hasErrors(saved)) {
      view.diagnostics([errorDiag("Error writing state file", saved.map((d) => d.detail ?? d.summary).join("; "))]);
      return 1;
    }
    view.println(
      "[reset][green]\nImport successful!\n\nThe resources that were imported are shown above. These resources are now in\nyour OpenTofu state and will henceforth be managed by OpenTofu.\n",
    );
    view.diagnostics(diagnostics);
    return 0;
  });
};
