// `terrace taint ADDRESS` and `terrace untaint ADDRESS`: OpenTofu's command/taint.go and untaint.go.
// The current object of one managed resource instance is marked tainted (replaced by the next
// plan) or ready again, in the selected workspace's state, under the state lock; the local
// backend keeps its usual `.backup` of the previous snapshot.
import { parseAbsResourceInstanceStr } from "../addrs/index.js";
import { hasErrors, type Diagnostic } from "../hcl/index.js";
import { State, setTainted } from "../states/index.js";
import { parseCommandFlags } from "./args.js";
import type { Command, CommandIO } from "./io.js";
import { View } from "./view.js";
import { legacyStateOptions, legacyStatePaths, persistState, withRefreshedState } from "./statecmd.js";
import { lockFlags } from "./workspace.js";
import { Meta, VAR_FLAGS, VAR_FLAGS_HELP } from "./meta.js";

const TAINT_HELP = `Usage: terrace [global options] taint [options] <address>

  OpenTofu uses the term "tainted" to describe a resource instance
  which may not be fully functional, either because its creation
  partially failed or because you've manually marked it as such using
  this command.

  This will not modify your infrastructure directly, but subsequent
  OpenTofu plans will include actions to destroy the remote object
  and create a new object to replace it.

  You can remove the "taint" state from a resource instance using
  the "terrace untaint" command.

  The address is in the usual resource address syntax, such as:
    aws_instance.foo
    aws_instance.bar[1]
    module.foo.module.bar.aws_instance.baz

  Use your shell's quoting or escaping syntax to ensure that the
  address will reach OpenTofu correctly, without any special
  interpretation.

Options:

  -allow-missing          If specified, the command will succeed (exit code 0)
                          even if the resource is missing.

  -lock=false             Don't hold a state lock during the operation. This is
                          dangerous if others might concurrently run commands
                          against the same workspace.

  -lock-timeout=0s        Duration to retry a state lock.

  -ignore-remote-version  A rare option used for the remote backend only. See
                          the remote backend documentation for more information.

  -state, state-out, and -backup are legacy options supported for the local
  backend only. For more information, see the local backend's documentation.

${VAR_FLAGS_HELP}`;

const UNTAINT_HELP = `Usage: terrace [global options] untaint [options] name

  OpenTofu uses the term "tainted" to describe a resource instance
  which may not be fully functional, either because its creation
  partially failed or because you've manually marked it as such using
  the "terrace taint" command.

  This command removes that state from a resource instance, causing
  OpenTofu to see it as fully-functional and not in need of
  replacement.

  This will not modify your infrastructure directly. It only avoids
  OpenTofu planning to replace a tainted instance in a future operation.

Options:

  -allow-missing          If specified, the command will succeed (exit code 0)
                          even if the resource is missing.

  -lock=false             Don't hold a state lock during the operation. This is
                          dangerous if others might concurrently run commands
                          against the same workspace.

  -lock-timeout=0s        Duration to retry a state lock.

  -ignore-remote-version  A rare option used for the remote backend only. See
                          the remote backend documentation for more information.

  -state, state-out, and -backup are legacy options supported for the local
  backend only. For more information, see the local backend's documentation.

${VAR_FLAGS_HELP}`;

/** "terrace" where OpenTofu's texts name the command "tofu". */
function ours(diags: readonly Diagnostic[]): Diagnostic[] {
  return diags.map((d) => ({ ...d, detail: d.detail?.replaceAll('"tofu ', '"terrace ') }));
}

async function run(args: readonly string[], io: CommandIO, taint: boolean): Promise<number> {
  const name = taint ? "taint" : "untaint";
  const help = taint ? TAINT_HELP : UNTAINT_HELP;
  // Meta.showDiagnostics through the legacy Ui: a blank line after each diagnostic.
  const view = new View(io, !args.includes("-no-color"), true);
  const p = parseCommandFlags(args, {
    bool: ["allow-missing", "lock", "ignore-remote-version", "no-color"],
    string: ["backup", "lock-timeout", "state"],
    multi: VAR_FLAGS,
  });
  if (typeof p === "string") {
    view.eprintln(`[red]Error parsing command-line flags: ${p}\n[reset]`);
    return 1;
  }
  if (p.bools.get("help")) {
    io.stdout.write(help);
    return 0;
  }
  if (p.positional.length !== 1) {
    view.eprintln(`[red]The ${name} command expects exactly one argument.[reset]`);
    io.stderr.write(help);
    return 1;
  }
  const lock = lockFlags(p);
  if (typeof lock === "string") {
    view.eprintln(`[red]Error parsing command-line flags: ${lock}\n[reset]`);
    return 1;
  }
  const parsed = parseAbsResourceInstanceStr(p.positional[0] as string);
  if (!parsed.result || hasErrors(parsed.diagnostics)) {
    view.diagnostics(parsed.diagnostics);
    return 1;
  }
  const addr = parsed.result;
  if (taint && addr.resource.resource.mode !== "managed") {
    view.eprintln(`[red]Resource instance ${addr.toString()} cannot be tainted[reset]`);
    return 1;
  }
  const loadFailed = (d: Diagnostic[]): void => view.eprintln(`[red]Failed to load state: ${d.map((x) => x.detail ?? x.summary).join("; ")}[reset]`);
  const allowMissingExit = (): number => {
    view.diagnostics([
      {
        severity: "warning",
        summary: "No such resource instance",
        detail: `Resource instance ${addr.toString()} was not found, but this is not an error because -allow-missing was set.`,
      },
    ]);
    return 0;
  };
  const meta = Meta.fromFlags(io, view, p);
  // taint checks the configuration's version requirements (loading all of it) first; untaint
  // goes straight to the backend.
  if (taint) {
    const v = await meta.checkRequiredVersion();
    if (hasErrors(v)) {
      view.diagnostics(v);
      return 1;
    }
  }
  const open = legacyStateOptions(legacyStatePaths(p));
  return withRefreshedState(meta, view, { open, operation: name, lock, openFailed: loadFailed, refreshFailed: loadFailed }, async (store) => {
    const working = store.state() ?? new State();
    const r = setTainted(working, addr, taint);
    if (!r.ok) {
      if (r.missing && p.bools.get("allow-missing")) return allowMissingExit();
      view.diagnostics(ours(r.diagnostics));
      return 1;
    }
    const saved = await persistState(store, working);
    if (hasErrors(saved)) {
      view.eprintln(`[red]Error writing state file: ${saved.map((d) => d.detail ?? d.summary).join("; ")}[reset]`);
      return 1;
    }
    view.println(taint ? `Resource instance ${addr.toString()} has been marked as tainted.` : `Resource instance ${addr.toString()} has been successfully untainted.`);
    return 0;
  });
}

export const taintCommand: Command = (args, io) => run(args, io, true);
export const untaintCommand: Command = (args, io) => run(args, io, false);
