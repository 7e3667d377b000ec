// `terrace workspace list|show|new|select|delete` (OpenTofu's command/workspace_*.go): the
// workspaces of the configured backend (initialised through static evaluation, so a backend
// configured from variables needs their values here too).
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { errorDiag, type Diagnostic } from "../hcl/index.js";
import { NotDeposed, readStateFile } from "../states/index.js";
import { parseFlags, processMetaArgs, type FlagSpec, type ParsedFlags } from "./args.js";
import type { Command, CommandIO } from "./io.js";
import { Meta, VAR_FLAGS, VAR_FLAGS_HELP } from "./meta.js";
import { createTerraceWorkspace, deleteTerraceWorkspace } from "./terrace_backend.js";
import { TOFU_VERSION } from "./version.js";
import { View } from "./view.js";
import {
  DEFAULT_WORKSPACE,
  currentWorkspace,
  lockFlags,
  setWorkspace,
  validWorkspaceName,
  withStateLock,
  workspaces,
  type BackendSelection,
} from "./workspace.js";

// ---------------------------------------------------------------------------------------------
// terrace workspace ...

const WORKSPACE_HELP = `Usage: terrace [global options] workspace

  new, list, show, select and delete OpenTofu workspaces.

Subcommands:
    delete    Delete a workspace
    list      List Workspaces
    new       Create a new workspace
    select    Select a workspace
    show      Show the name of the current workspace
`;

const LIST_HELP = `Usage: terrace [global options] workspace list [options]

  List OpenTofu workspaces.

Options:

${VAR_FLAGS_HELP}`;

const SHOW_HELP = `Usage: terrace [global options] workspace show

  Show the name of the current workspace.
`;

const NEW_HELP = `Usage: terrace [global options] workspace new [OPTIONS] NAME

  Create a new OpenTofu workspace.

Options:

    -lock=false         Don't hold a state lock during the operation. This is
                        dangerous if others might concurrently run commands
                        against the same workspace.

    -lock-timeout=0s    Duration to retry a state lock.

    -state=path         Copy an existing state file into the new workspace.

${VAR_FLAGS_HELP}`;

const SELECT_HELP = `Usage: terrace [global options] workspace select [options] NAME

  Select a different OpenTofu workspace.

Options:

    -or-create=false    Create the OpenTofu workspace if it doesn't exist.

${VAR_FLAGS_HELP}`;

const DELETE_HELP = `Usage: terrace [global options] workspace delete [options] NAME

  Delete a OpenTofu workspace


Options:

  -force               Remove a workspace even if it is managing resources.
                       OpenTofu can no longer track or manage the workspace's
                       infrastructure.

  -lock=false          Don't hold a state lock during the operation. This is
                       dangerous if others might concurrently run commands
                       against the same workspace.

  -lock-timeout=0s     Duration to retry a state lock.

${VAR_FLAGS_HELP}`;

const ENV_CREATED = `[reset][green][bold]Created and switched to workspace %s![reset][green]

You're now on a new, empty workspace. Workspaces isolate their state,
so if you run "terrace plan" OpenTofu will not see any existing state
for this configuration.`;

const ENV_DOES_NOT_EXIST = `
Workspace %s doesn't exist.

You can create this workspace with the "new" subcommand 
or include the "-or-create" flag with the "select" subcommand.`;

const ENV_DEL_CURRENT = `
Workspace %s is your active workspace.

You cannot delete the currently active workspace. Please switch
to another workspace and try again.`;

const ENV_INVALID_NAME = `
The workspace name %s is not allowed. The name must contain only URL safe
characters, and no path separators.
`;

const ENV_OVERRIDDEN_NOTE = `

The active workspace is being overridden using the TF_WORKSPACE environment
variable.
`;

const ENV_OVERRIDDEN_SELECT = `
The selected workspace is currently overridden using the TF_WORKSPACE
environment variable.

To select a new workspace, either update this environment variable or unset
it and then run this command again.
`;

const ENV_OVERRIDDEN_NEW = `
The workspace is currently overridden using the TF_WORKSPACE environment
variable. You cannot create a new workspace when using this setting.

To create a new workspace, either unset this environment variable or update it
to match the workspace name you are trying to create, and then run this command
again.
`;

const ENV_WARN_NOT_EMPTY = `[reset][yellow]WARNING: %s was non-empty.
The resources managed by the deleted workspace may still exist,
but are no longer manageable by OpenTofu since the state has
been deleted.
`;

const q = (s: string): string => JSON.stringify(s);


// Views here are made with diagsWithNewline: tofu 1.11 shows these commands' diagnostics
// through the legacy Ui (Meta.showDiagnostics, Ui.Error), which ends each with a blank line.

/** c.Ui.Error: the message and a newline to stderr, in red on a terminal. */
function uiError(view: View, msg: string): void {
  view.eprintln(`[red]${msg}[reset]`);
}

function flagError(view: View, p: string): number {
  uiError(view, `Error parsing command-line flags: ${p}\n`);
  return 1;
}

/**
 * The start `workspace new|select|delete` share: flags read, -help answered, exactly one NAME;
 * a number is the exit code to return.
 */
function parseNameCommand(args: readonly string[], io: CommandIO, spec: FlagSpec, help: string): { view: View; p: ParsedFlags; name: string } | number {
  const { color, rest } = processMetaArgs(args);
  const view = new View(io, color, true);
  const p = parseFlags(rest, spec);
  if (typeof p === "string") return flagError(view, p);
  if (p.bools.get("help")) {
    io.stdout.write(help);
    return 0;
  }
  if (p.positional.length !== 1) {
    uiError(view, "Expected a single argument: NAME.\n");
    io.stdout.write(help);
    return 1;
  }
  return { view, p, name: p.positional[0] as string };
}

/**
 * Creates a workspace: the local backend's directory (its StateMgr does this for new names), or
 * the Terrace server's workspace behind it.
 */
async function createWorkspace(io: CommandIO, backend: BackendSelection, name: string): Promise<Diagnostic[]> {
  if (name === DEFAULT_WORKSPACE || backend.kind === "http") return [];
  if (backend.kind === "terrace") {
    const r = await createTerraceWorkspace(backend, name);
    if (r.ok) return [];
    return [errorDiag("Error creating the workspace", `Failed creating the Terrace workspace for ${q(name)}: ${r.error}`)];
  }
  try {
    mkdirSync(path.resolve(io.cwd, backend.workspaceDir, name), { recursive: true });
    return [];
  } catch (e) {
    return [errorDiag("Error getting the state manager", `Failed getting state manager for workspace ${name}: ${e instanceof Error ? e.message : String(e)}`)];
  }
}

async function workspaceList(args: readonly string[], io: CommandIO): Promise<number> {
  const { color, rest } = processMetaArgs(args);
  const view = new View(io, color, true);
  const p = parseFlags(rest, { multi: VAR_FLAGS });
  if (typeof p === "string") return flagError(view, p);
  if (p.bools.get("help")) {
    io.stdout.write(LIST_HELP);
    return 0;
  }
  // ModulePath: the configuration directory is -chdir's business now.
  if (p.positional.length > 0) {
    uiError(view, "Too many command line arguments. Did you mean to use -chdir?");
    return 1;
  }
  const meta = Meta.fromFlags(io, view, p);
  const sel = await meta.backend();
  if (!sel.backend) {
    view.diagnostics(sel.diagnostics);
    return 1;
  }
  const backend = sel.backend;
  const ws = await workspaces(io, backend);
  if (ws.error !== undefined) {
    uiError(view, ws.error);
    return 1;
  }
  const cur = currentWorkspace(io);
  let out = "";
  for (const n of ws.names) out += `${n === cur.name ? "* " : "  "}${n}\n`;
  view.println(out);
  if (cur.overridden) view.println(ENV_OVERRIDDEN_NOTE);
  return 0;
}

async function workspaceShow(args: readonly string[], io: CommandIO): Promise<number> {
  const { color, rest } = processMetaArgs(args);
  const view = new View(io, color, true);
  const p = parseFlags(rest, {});
  if (typeof p === "string") return flagError(view, p);
  if (p.bools.get("help")) {
    io.stdout.write(SHOW_HELP);
    return 0;
  }
  io.stdout.write(`${currentWorkspace(io).name}\n`);
  return 0;
}

async function workspaceNew(args: readonly string[], io: CommandIO): Promise<number> {
  const parsed = parseNameCommand(args, io, { bool: ["lock"], string: ["lock-timeout", "state"], multi: VAR_FLAGS }, NEW_HELP);
  if (typeof parsed === "number") return parsed;
  const { view, p, name } = parsed;
  if (!validWorkspaceName(name)) {
    uiError(view, ENV_INVALID_NAME.replace("%s", q(name)));
    return 1;
  }
  const cur = currentWorkspace(io);
  if (cur.overridden && cur.name !== name) {
    uiError(view, ENV_OVERRIDDEN_NEW);
    return 1;
  }
  const meta = Meta.fromFlags(io, view, p);
  const sel = await meta.backend();
  if (!sel.backend) {
    view.diagnostics(sel.diagnostics);
    return 1;
  }
  const backend = sel.backend;
  const existing = await workspaces(io, backend);
  if (existing.error !== undefined) {
    view.diagnostics([errorDiag("Error getting existing workspaces", `Failed listing workspaces: ${existing.error}`)]);
    return 1;
  }
  if (existing.names.includes(name)) {
    uiError(view, `Workspace ${q(name)} already exists`);
    return 1;
  }
  const created = [...(await createWorkspace(io, backend, name)), ...setWorkspace(io, name)];
  if (created.length > 0) {
    view.diagnostics(created);
    return 1;
  }
  view.println(ENV_CREATED.replace("%s", q(name)));
  const statePath = p.strings.get("state");
  if (statePath === undefined || statePath === "") return 0;
  return copyStateInto(io, view, meta, name, statePath, p);
}

/** `workspace new -state=PATH`: the given state file becomes the new workspace's state. */
async function copyStateInto(io: CommandIO, view: View, meta: Meta, workspace: string, statePath: string, p: ParsedFlags): Promise<number> {
  const lock = lockFlags(p);
  if (typeof lock === "string") return flagError(view, lock);
  const o = await meta.openStateStore({ workspace });
  if (!o.opened) {
    view.diagnostics(o.diagnostics);
    return 1;
  }
  const store = o.opened.store;
  return withStateLock(view, store, "workspace-new", lock, async () => {
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(readFileSync(path.resolve(io.cwd, statePath)));
    } catch (e) {
      view.diagnostics([errorDiag("Error opening the given state", `Failed opening the given state ${q(statePath)}: ${e instanceof Error ? e.message : String(e)}`)]);
      return 1;
    }
    const r = readStateFile(bytes, { tofuVersion: TOFU_VERSION });
    if (r.kind === "error") {
      const why = r.diagnostics.map((d) => (d.detail ? `${d.summary}: ${d.detail}` : d.summary)).join("; ");
      view.diagnostics([errorDiag("Error reading the given state", `Failed reading the given state ${q(statePath)}: ${why}`)]);
      return 1;
    }
    if (r.kind === "no-state") return 0;
    const refreshed = await store.refresh();
    if (refreshed.length > 0) {
      view.diagnostics(refreshed);
      return 1;
    }
    store.write(r.file.state);
    const d = await store.persist();
    if (d.length > 0) {
      view.diagnostics([errorDiag("Error persisting the new state", `Failed persisting the new state: ${d.map((x) => x.detail ?? x.summary).join("; ")}`)]);
      return 1;
    }
    return 0;
  });
}

async function workspaceSelect(args: readonly string[], io: CommandIO): Promise<number> {
  const parsed = parseNameCommand(args, io, { bool: ["or-create"], multi: VAR_FLAGS }, SELECT_HELP);
  if (typeof parsed === "number") return parsed;
  const { view, p, name } = parsed;
  const cur = currentWorkspace(io);
  if (cur.overridden) {
    uiError(view, ENV_OVERRIDDEN_SELECT);
    return 1;
  }
  const meta = Meta.fromFlags(io, view, p);
  const sel = await meta.backend();
  if (!sel.backend) {
    view.diagnostics(sel.diagnostics);
    return 1;
  }
  const backend = sel.backend;
  if (!validWorkspaceName(name)) {
    uiError(view, ENV_INVALID_NAME.replace("%s", q(name)));
    return 1;
  }
  const ws = await workspaces(io, backend);
  if (ws.error !== undefined) {
    uiError(view, ws.error);
    return 1;
  }
  if (name === cur.name) return 0;
  let created = false;
  if (!ws.names.includes(name)) {
    if (!(p.bools.get("or-create") ?? false) || backend.kind === "http") {
      uiError(view, ENV_DOES_NOT_EXIST.replace("%s", q(name)));
      return 1;
    }
    const d = await createWorkspace(io, backend, name);
    if (d.length > 0) {
      view.diagnostics(d);
      return 1;
    }
    created = true;
  }
  const d = setWorkspace(io, name);
  if (d.length > 0) {
    view.diagnostics(d);
    return 1;
  }
  view.println(created ? ENV_CREATED.replace("%s", q(name)) : `[reset][green]Switched to workspace ${q(name)}.`);
  return 0;
}

/** Backend.DeleteWorkspace; an error message when it failed. */
async function removeWorkspace(io: CommandIO, backend: Exclude<BackendSelection, { kind: "http" }>, name: string, force: boolean): Promise<string | undefined> {
  if (backend.kind === "terrace") {
    const r = await deleteTerraceWorkspace(backend, name, force);
    return r.ok ? undefined : r.error;
  }
  try {
    rmSync(path.resolve(io.cwd, backend.workspaceDir, name), { recursive: true, force: true });
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

async function workspaceDelete(args: readonly string[], io: CommandIO): Promise<number> {
  const parsed = parseNameCommand(args, io, { bool: ["force", "lock"], string: ["lock-timeout"], multi: VAR_FLAGS }, DELETE_HELP);
  if (typeof parsed === "number") return parsed;
  const { view, p, name } = parsed;
  const lock = lockFlags(p);
  if (typeof lock === "string") return flagError(view, lock);
  const meta = Meta.fromFlags(io, view, p);
  const sel = await meta.backend();
  if (!sel.backend) {
    view.diagnostics(sel.diagnostics);
    return 1;
  }
  const backend = sel.backend;
  const ws = await workspaces(io, backend);
  if (ws.error !== undefined) {
    view.diagnostics([errorDiag("Error loading workspaces", `Listing workspaces failed: ${ws.error}`)]);
    return 1;
  }
  if (!ws.names.includes(name)) {
    uiError(view, ENV_DOES_NOT_EXIST.replace("%s", q(name)));
    return 1;
  }
  if (name === currentWorkspace(io).name) {
    uiError(view, ENV_DEL_CURRENT.replace("%s", q(name)));
    return 1;
  }
  if (backend.kind === "http") return 1;
  const o = await meta.openStateStore({ workspace: name });
  if (!o.opened) {
    view.diagnostics(o.diagnostics);
    return 1;
  }
  const store = o.opened.store;
  const force = p.bools.get("force") ?? false;
  let hasResources = false;
  const checked = await withStateLock(view, store, "workspace-delete", lock, async () => {
    const d = await store.refresh();
    if (d.length > 0) {
      view.diagnostics([errorDiag("Failed to refresh state", `State refresh failed: ${d.map((x) => x.detail ?? x.summary).join("; ")}`)]);
      return 1;
    }
    const state = store.state();
    hasResources = state?.hasManagedResourceInstanceObjects() ?? false;
    if (!state || !hasResources || force) return 0;
    const list = state
      .allResourceInstanceObjectAddrs()
      .map((o) => `\n  - ${o.instance.toString()}${o.deposedKey === NotDeposed ? "" : ` (deposed object ${o.deposedKey})`}`)
      .join("");
    view.diagnostics([
      errorDiag(
        "Workspace is not empty",
        `Workspace ${q(name)} is currently tracking the following resource instances:${list}\n\nDeleting this workspace would cause OpenTofu to lose track of any associated remote objects, which would then require you to delete them manually outside of OpenTofu. You should destroy these objects with OpenTofu before deleting the workspace.\n\nIf you want to delete this workspace anyway, and have OpenTofu forget about these managed objects, use the -force option to disable this safety check.`,
      ),
    ]);
    return 1;
  });
  if (checked !== 0) return checked;
  // The lock is released before the files go, as tofu does (Windows cannot remove a held file).
  if (name === DEFAULT_WORKSPACE) {
    view.diagnostics([errorDiag("Workspace deletion failed", "Failed to delete the given workspace: cannot delete default state")]);
    return 1;
  }
  const removed = await removeWorkspace(io, backend, name, force);
  if (removed !== undefined) {
    view.diagnostics([errorDiag("Workspace deletion failed", `Failed to delete the given workspace: ${removed}`)]);
    return 1;
  }
  view.println(`[reset][green]Deleted workspace ${q(name)}!`);
  if (hasResources) view.println(ENV_WARN_NOT_EMPTY.replace("%s", q(name)));
  return 0;
}

export const workspaceCommand: Command = async (args, io) => {
  const [sub, ...rest] = args;
  switch (sub) {
    case "list":
      return workspaceList(rest, io);
    case "show":
      return workspaceShow(rest, io);
    case "new":
      return workspaceNew(rest, io);
    case "select":
      return workspaceSelect(rest, io);
    case "delete":
      return workspaceDelete(rest, io);
    default:
      io.stdout.write(WORKSPACE_HELP);
      return sub === "-help" || sub === "-h" || sub === "--help" ? 0 : 1;
  }
};
