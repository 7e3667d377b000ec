// `terrace state list|show|pull|mv|rm|push|replace-provider`: OpenTofu's command/state_*.go and
// state_meta.go (address lookup, timestamped backups) over the configured backend and the
// selected workspace (workspace.ts), or the legacy -state file. The commands that change state
// hold the state lock, refresh (statecmd.ts), change the state in memory (states' mutate.ts) and
// persist once, so a failure leaves the stored state as it was.
import { parseAbsResourceInstanceStr, parseProviderSourceString, parseTargetStr, targetContains, type AbsResourceInstance } from "../addrs/index.js";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import {
  State,
  checkValidImport,
  moveStateObjects,
  newFile,
  newLineage,
  readStateFile,
  removeResourceInstances,
  replaceProvider,
  resourcesUsingProvider,
  statesMarshalEqual,
  writeStateFile,
  LocalStore,
  type File,
  type Module,
  type StateStore,
} from "../states/index.js";
import { compactGo, goQuote } from "../values/index.js";
import { parseFlags, processMetaArgs, type ParsedFlags } from "./args.js";
import type { Command, CommandIO } from "./io.js";
import { TOFU_VERSION } from "./plan.js";
import { goPathError } from "../host/errno.js";
import { helpPrompt, renderHumanState, stateProviders } from "./show.js";
import { loadSchemas } from "./saved_plan.js";
import { Meta, VAR_FLAGS, VAR_FLAGS_HELP } from "./meta.js";
import { View } from "./view.js";
import { persistState, withRefreshedState } from "./statecmd.js";
import { httpClientOf, lockFlags, type LockFlags, type OpenOptions } from "./workspace.js";

const STATE_HELP = `Usage: terrace [global options] state <subcommand> [options] [args]

  This command has subcommands for advanced state management.

  These subcommands can be used to slice and dice the OpenTofu state.
  This is sometimes necessary in advanced cases. For your safety, all
  state management commands that modify the state create a timestamped
  backup of the state prior to making modifications.

  The structure and output of the commands is specifically tailored to work
  well with the common Unix utilities such as grep, awk, etc. We recommend
  using those tools to perform more advanced state tasks.

Subcommands:
    list                List resources in the state
    mv                  Move an item in the state
    pull                Pull current state and output to stdout
    push                Update remote state from a local state file
    replace-provider    Replace provider in the state
    rm                  Remove instances from the state
    show                Show a resource in the state
`;

const STATE_SHOW_HELP = `Usage: terrace [global options] state show [options] ADDRESS

  Shows the attributes of a resource in the OpenTofu state.

  This command shows the attributes of a single resource in the OpenTofu
  state. The address argument must be used to specify a single resource.
  You can view the list of available resources with "terrace state list".

Options:

  -state=statefile    Path to a OpenTofu state file to use to look
                      up OpenTofu-managed resources. By default it will
                      use the state "terraform.tfstate" if it exists.

  -show-sensitive     If specified, sensitive values will be displayed.

${VAR_FLAGS_HELP}`;

const STATE_LIST_HELP = `Usage: terrace [global options] state (list|ls) [options] [address...]

  List resources in the OpenTofu state.

  This command lists resource instances in the OpenTofu state. The address
  argument can be used to filter the instances by resource or module. If
  no pattern is given, all resource instances are listed.

  The addresses must either be module addresses or absolute resource
  addresses, such as:
      aws_instance.example
      module.example
      module.example.module.child
      module.example.aws_instance.example

  An error will be returned if any of the resources or modules given as
  filter addresses do not exist in the state.

Options:

  -state=statefile    Path to a OpenTofu state file to use to look
                      up OpenTofu-managed resources. By default, OpenTofu
                      will consult the state of the currently-selected
                      workspace.

  -id=ID              Filters the results to include only instances whose
                      resource types have an attribute named "id" whose value
                      equals the given id string.

${VAR_FLAGS_HELP}`;

const STATE_PULL_HELP = `Usage: terrace [global options] state pull [options]

  Pull the state from its location, upgrade the local copy, and output it
  to stdout.

  This command "pulls" the current state and outputs it to stdout.
  As part of this process, OpenTofu will upgrade the state format of the
  local copy to the current version.

  The primary use of this is for state stored remotely. This command
  will still work with local state but is less useful for this.

Options:

${VAR_FLAGS_HELP}`;

// StateMeta's errStateNotFound, as tofu's state commands print it.
const ERR_STATE_NOT_FOUND = `No state file was found!

State management commands require a state file. Run this command
in a directory where OpenTofu has been run or use the -state flag
to point the command to a specific state location.`;

const INSTANCE_HINT = `This command requires that the address references one specific instance.
To view the available instances, use "terrace state list". Please modify 
the address to reference a specific instance.`;

const ERR_NO_INSTANCE_FOUND = `No instance found for the given address!\n\n${INSTANCE_HINT}`;

function sortAddrs(addrs: AbsResourceInstance[]): AbsResourceInstance[] {
  return addrs.sort((a, b) => a.compare(b));
}

function moduleInstances(m: Module): AbsResourceInstance[] {
  const out: AbsResourceInstance[] = [];
  for (const rs of m.resources.values()) for (const is of rs.instances.values()) out.push(rs.addr.instance(is.key));
  return out;
}

/** StateMeta.lookupResourceInstanceAddr: `state list ADDR` reports what is missing, `state rm` does not. */
function lookupAddrs(state: State, addrStr: string, allowMissing = false): { addrs: AbsResourceInstance[]; diagnostics: Diagnostic[] } {
  const t = parseTargetStr(addrStr);
  if (!t.result || hasErrors(t.diagnostics)) return { addrs: [], diagnostics: t.diagnostics };
  const subject = t.result.subject;
  const ret: AbsResourceInstance[] = [];
  const diagnostics: Diagnostic[] = [];
  switch (subject.kind) {
    case "ModuleInstance": {
      let found = false;
      const ms = state.module(subject);
      if (ms) {
        found = true;
        ret.push(...moduleInstances(ms));
      }
      for (const cms of state.modules.values()) {
        if (subject.equal(cms.addr)) continue;
        if (subject.isAncestor(cms.addr) || targetContains(subject, cms.addr)) {
          found = true;
          ret.push(...moduleInstances(cms));
        }
      }
      if (!found && !allowMissing) {
        diagnostics.push(
          errorDiag(
            "Unknown module",
            `The current state contains no module at ${subject.toString()}. If you've just added this module to the configuration, you must run "terrace apply" first to create the module's entry in the state.`,
          ),
        );
      }
      break;
    }
    case "AbsResource": {
      const rs = state.resource(subject);
      if (!rs) {
        if (allowMissing) break;
        diagnostics.push(
          errorDiag(
            "Unknown resource",
            `The current state contains no resource ${subject.toString()}. If you've just added this resource to the configuration, you must run "terrace apply" first to create the resource's entry in the state.`,
          ),
        );
        break;
      }
      for (const is of rs.instances.values()) ret.push(rs.addr.instance(is.key));
      break;
    }
    case "AbsResourceInstance": {
      if (!state.resourceInstance(subject)) {
        if (allowMissing) break;
        diagnostics.push(
          errorDiag(
            "Unknown resource instance",
            `The current state contains no resource instance ${subject.toString()}. If you've just added its resource to the configuration or have changed the count or for_each arguments, you must run "terrace apply" first to update the resource's entry in the state.`,
          ),
        );
        break;
      }
      ret.push(subject);
      break;
    }
    default:
      break;
  }
  return { addrs: sortAddrs(ret), diagnostics };
}

/** states.LegacyInstanceObjectID: the "id" attribute of the current object. */
function legacyID(state: State, addr: AbsResourceInstance): string {
  const cur = state.resourceInstance(addr)?.current;
  if (!cur || cur.attrsJSON === undefined) return "";
  try {
    const attrs: unknown = JSON.parse(cur.attrsJSON);
    if (typeof attrs === "object" && attrs !== null && "id" in attrs && typeof attrs.id === "string") return attrs.id;
  } catch {
    return "";
  }
  return "";
}

type ReadStateResult = { ok: true; file: File | undefined } | { ok: false; diagnostics: Diagnostic[] };

/** The current state of the selected workspace (or the -state file), read without locking. */
async function readState(meta: Meta, statePath?: string): Promise<ReadStateResult> {
  const o = await meta.openStateStore(statePath === undefined ? {} : { statePath });
  if (!o.opened) return { ok: false, diagnostics: o.diagnostics };
  const d = await o.opened.store.refresh();
  if (hasErrors(d)) return { ok: false, diagnostics: d };
  return { ok: true, file: o.opened.store.state() ? o.opened.store.snapshotFile() : undefined };
}


// Views here are made with diagsWithNewline: tofu 1.11 shows these commands' diagnostics
// through the legacy Ui (Meta.showDiagnostics, Ui.Error), which ends each with a blank line.

/** Meta.Backend, whose errors are shown as diagnostics; false when it failed. */
async function backendReady(meta: Meta, view: View): Promise<boolean> {
  const b = await meta.backend();
  if (b.backend) return true;
  view.diagnostics(b.diagnostics);
  return false;
}

async function stateList(args: readonly string[], io: CommandIO): Promise<number> {
  const { color, rest } = processMetaArgs(args);
  const p = parseFlags(rest, { string: ["state", "id"], multi: VAR_FLAGS });
  const view = new View(io, color, true);
  if (typeof p === "string") {
    view.diagnostics([errorDiag("Failed to parse command-line flags", p)]);
    helpPrompt(io, "state list");
    return 1;
  }
  if (p.bools.get("help")) {
    io.stdout.write(STATE_LIST_HELP);
    return 0;
  }
  const meta = Meta.fromFlags(io, view, p);
  if (!(await backendReady(meta, view))) return 1;
  const st = await readState(meta, p.strings.get("state"));
  if (!st.ok) {
    io.stderr.write(`Failed to load state: ${diagText(st.diagnostics)}\n`);
    return 1;
  }
  if (!st.file) {
    io.stderr.write(`${ERR_STATE_NOT_FOUND}\n`);
    return 1;
  }
  const state = st.file.state;
  let addrs: AbsResourceInstance[] = [];
  const diagnostics: Diagnostic[] = [];
  if (p.positional.length === 0) {
    for (const m of state.modules.values()) addrs.push(...moduleInstances(m));
    sortAddrs(addrs);
  } else {
    for (const a of p.positional) {
      const r = lookupAddrs(state, a);
      addrs.push(...r.addrs);
      diagnostics.push(...r.diagnostics);
    }
  }
  if (hasErrors(diagnostics)) {
    view.diagnostics(diagnostics);
    return 1;
  }
  const id = p.strings.get("id") ?? "";
  addrs = addrs.filter((a) => {
    const is = state.resourceInstance(a);
    return is !== undefined && (id === "" || id === legacyID(state, a));
  });
  for (const a of addrs) io.stdout.write(`${a.toString()}\n`);
  view.diagnostics(diagnostics);
  return 0;
}

async function stateShow(args: readonly string[], io: CommandIO): Promise<number> {
  const { color, rest } = processMetaArgs(args);
  const p = parseFlags(rest, { bool: ["show-sensitive"], string: ["state"], multi: VAR_FLAGS });
  const view = new View(io, color, true);
  if (typeof p === "string") {
    view.diagnostics([errorDiag("Failed to parse command-line flags", p)]);
    helpPrompt(io, "state show");
    return 1;
  }
  if (p.bools.get("help")) {
    io.stdout.write(STATE_SHOW_HELP);
    return 0;
  }
  if (p.positional.length !== 1) {
    io.stderr.write("Exactly one argument expected.\n");
    io.stdout.write(STATE_SHOW_HELP);
    return 1;
  }
  // The backend is initialised before the address is read, as tofu's state show does.
  const meta = Meta.fromFlags(io, view, p);
  if (!(await backendReady(meta, view))) return 1;
  const addrStr = p.positional[0] as string;
  const parsed = parseAbsResourceInstanceStr(addrStr);
  if (!parsed.result || hasErrors(parsed.diagnostics)) {
    io.stderr.write(`Error parsing instance address: ${addrStr}\n\n${INSTANCE_HINT}\n`);
    return 1;
  }
  const addr = parsed.result;
  const st = await readState(meta, p.strings.get("state"));
  if (!st.ok) {
    io.stderr.write(`Failed to refresh state: ${diagText(st.diagnostics)}\n`);
    return 1;
  }
  if (!st.file) {
    io.stderr.write(`${ERR_STATE_NOT_FOUND}\n`);
    return 1;
  }
  const is = st.file.state.resourceInstance(addr);
  const rs = st.file.state.resource(addr.containingResource());
  if (!is || !is.current || !rs) {
    io.stderr.write(`${ERR_NO_INSTANCE_FOUND}\n`);
    return 1;
  }
  const single = new State();
  const copy = rs.deepCopy();
  const keep = [...rs.instances].find(([, v]) => v === is)?.[0];
  for (const [k, ci] of [...copy.instances]) {
    if (k !== keep) copy.instances.delete(k);
    else ci.deposed.clear();
  }
  single.ensureModule(addr.module).resources.set(copy.addr.resource.toString(), copy);
  const s = await loadSchemas(io, stateProviders(single));
  if (hasErrors(s.diagnostics)) {
    view.diagnostics(s.diagnostics);
    return 1;
  }
  const r = renderHumanState(newFile(single, "", 0, TOFU_VERSION), s.schemas, {
    color: view.colorEnabled && io.stdout.isTTY === true,
    showSensitive: p.bools.get("show-sensitive") ?? false,
  });
  if (!r.ok) {
    view.diagnostics(r.diagnostics);
    return 1;
  }
  io.stdout.write(r.text);
  return 0;
}

async function statePull(args: readonly string[], io: CommandIO): Promise<number> {
  const { color, rest } = processMetaArgs(args);
  const p = parseFlags(rest, { multi: VAR_FLAGS });
  const view = new View(io, color, true);
  if (typeof p === "string") {
    view.diagnostics([errorDiag("Failed to parse command-line flags", p)]);
    helpPrompt(io, "state pull");
    return 1;
  }
  if (p.bools.get("help")) {
    io.stdout.write(STATE_PULL_HELP);
    return 0;
  }
  // state pull checks the configuration's version requirements (loading all of it) first.
  const meta = Meta.fromFlags(io, view, p);
  const loads = await meta.checkRequiredVersion();
  if (hasErrors(loads)) {
    view.diagnostics(loads);
    return 1;
  }
  if (!(await backendReady(meta, view))) return 1;
  const st = await readState(meta);
  if (!st.ok) {
    io.stderr.write(`Failed to refresh state: ${diagText(st.diagnostics)}\n`);
    return 1;
  }
  if (!st.file) return 0;
  const w = writeStateFile(newFile(st.file.state, st.file.lineage, st.file.serial, TOFU_VERSION), { terraformVersion: TOFU_VERSION });
  if (!w.ok) {
    view.diagnostics(w.diagnostics);
    return 1;
  }
  // Compact JSON, as OpenTofu's state writer gives it since 1.12 (state files Terrace writes stay
  // indented, as tofu 1.11 and terraform write them).
  io.stdout.write(`${compactGo(w.bytes)}\n\n`);
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Commands that change state

const STATE_MV_HELP = `Usage: terrace [global options] state (move|mv) [options] SOURCE DESTINATION

 This command will move an item matched by the address given to the
 destination address. This command can also move to a destination address
 in a completely different state file.

 This can be used for simple resource renaming, moving items to and from
 a module, moving entire modules, and more. And because this command can also
 move data to a completely new state, it can also be used for refactoring
 one configuration into multiple separately managed OpenTofu configurations.

 This command will output a backup copy of the state prior to saving any
 changes. The backup cannot be disabled. Due to the destructive nature
 of this command, backups are required.

 If you're moving an item to a different state file, a backup will be created
 for each state file.

Options:

  -dry-run                If set, prints out what would've been moved but doesn't
                          actually move anything.

  -lock=false             Don't hold a state lock during the operation. This is
                          dangerous if others might concurrently run commands
                          against the same workspace.

  -lock-timeout=0s        Duration to retry a state lock.

  -ignore-remote-version  A rare option used for the remote backend only. See
                          the remote backend documentation for more information.

  -state, state-out, and -backup are legacy options supported for the local
  backend only. For more information, see the local backend's documentation.

${VAR_FLAGS_HELP}`;

const STATE_RM_HELP = `Usage: terrace [global options] state (remove|rm) [options] ADDRESS...

  Remove one or more items from the OpenTofu state, causing OpenTofu to
  "forget" those items without first destroying them in the remote system.

  This command removes one or more resource instances from the OpenTofu state
  based on the addresses given. You can view and list the available instances
  with "terrace state list".

  If you give the address of an entire module then all of the instances in
  that module and any of its child modules will be removed from the state.

  If you give the address of a resource that has "count" or "for_each" set,
  all of the instances of that resource will be removed from the state.

Options:

  -dry-run                If set, prints out what would've been removed but
                          doesn't actually remove anything.

  -backup=PATH            Path where OpenTofu should write the backup
                          state.

  -lock=false             Don't hold a state lock during the operation. This is
                          dangerous if others might concurrently run commands
                          against the same workspace.

  -lock-timeout=0s        Duration to retry a state lock.

  -state=PATH             Path to the state file to update. Defaults to the
                          current workspace state.

  -ignore-remote-version  Continue even if remote and local OpenTofu versions
                          are incompatible. This may result in an unusable
                          workspace, and should be used with extreme caution.

${VAR_FLAGS_HELP}`;

const STATE_PUSH_HELP = `Usage: terrace [global options] state push [options] PATH

  Update remote state from a local state file at PATH.

  This command "pushes" a local state and overwrites remote state
  with a local state file. The command will protect you against writing
  an older serial or a different state file lineage unless you specify the
  "-force" flag.

  This command works with local state (it will overwrite the local
  state), but is less useful for this use case.

  If PATH is "-", then this command will read the state to push from stdin.
  Data from stdin is not streamed to the backend: it is loaded completely
  (until pipe close), verified, and then pushed.

Options:

  -force              Write the state even if lineages don't match or the
                      remote serial is higher.

  -lock=false         Don't hold a state lock during the operation. This is
                      dangerous if others might concurrently run commands
                      against the same workspace.

  -lock-timeout=0s    Duration to retry a state lock.

${VAR_FLAGS_HELP}`;

const STATE_REPLACE_PROVIDER_HELP = `Usage: terrace [global options] state replace-provider [options] FROM_PROVIDER_FQN TO_PROVIDER_FQN

  Replace provider for resources in the OpenTofu state.

Options:

  -auto-approve           Skip interactive approval.

  -lock=false             Don't hold a state lock during the operation. This is
                          dangerous if others might concurrently run commands
                          against the same workspace.

  -lock-timeout=0s        Duration to retry a state lock.

  -ignore-remote-version  A rare option used for the remote backend only. See
                          the remote backend documentation for more information.

  -state, state-out, and -backup are legacy options supported for the local
  backend only. For more information, see the local backend's documentation.

${VAR_FLAGS_HELP}`;

const ERR_STATE_LOADING = `Error loading the state: %s

Please ensure that your OpenTofu state exists and that you've
configured it properly. You can use the "-state" flag to point
OpenTofu at another state file.`;

const ERR_STATE_MV_DST_EXISTS = `Error moving state: destination module already exists.

Please ensure your addresses and state paths are valid. No
state was persisted. Your existing states are untouched.`;

const ERR_STATE_PERSIST = `Error saving the state: %s

The state was not saved. No items were removed from the persisted
state. No backup was created since no modification occurred. Please
resolve the issue above and try again.`;

/** The flags every state-changing command has. */
const LOCK_FLAGS = { bool: ["lock", "ignore-remote-version"], string: ["lock-timeout", "state", "backup"], multi: VAR_FLAGS } as const;

/**
 * tfdiags' Diagnostics.Err().Error(), which tofu's state commands print: "summary: detail" for one
 * diagnostic, else "N problems:" and a "- summary: detail" line for each.
 */
function diagText(d: readonly Diagnostic[]): string {
  const one = (x: Diagnostic): string => (x.detail ? `${x.summary}: ${x.detail}` : x.summary);
  const [first] = d;
  if (d.length === 1 && first) return one(first);
  return `${d.length} ${hasErrors(d) ? "problems" : "warnings"}:\n${d.map((x) => `\n- ${one(x)}`).join("")}`;
}

/** c.Ui.Error: the message to stderr, red on a terminal. */
function uiError(view: View, msg: string): void {
  view.eprintln(`[red]${msg}[reset]`);
}

interface Common {
  readonly view: View;
  readonly lock: LockFlags;
  readonly meta: Meta;
}

/**
 * Meta.checkRequiredVersion, which the state-changing commands run before the backend: the whole
 * configuration must load.
 */
async function configLoads(c: Common): Promise<boolean> {
  const d = await c.meta.checkRequiredVersion();
  if (!hasErrors(d)) return true;
  c.view.diagnostics(d);
  return false;
}

/** Parses the flags of a state-changing command; a number is the exit code of a usage error. */
function parseCommon(args: readonly string[], io: CommandIO, extra: { bool?: string[]; string?: string[] }, help: string): { p: ParsedFlags; c: Common } | number {
  const { color, rest } = processMetaArgs(args);
  const view = new View(io, color, true);
  const p = parseFlags(rest, {
    bool: [...LOCK_FLAGS.bool, ...(extra.bool ?? [])],
    string: [...LOCK_FLAGS.string, ...(extra.string ?? [])],
    multi: LOCK_FLAGS.multi,
  });
  // A flag error is the message alone: tofu 1.11's state commands return 1 without the usage.
  if (typeof p === "string") {
    uiError(view, `Error parsing command-line flags: ${p}\n`);
    return 1;
  }
  if (p.bools.get("help")) {
    io.stdout.write(help);
    return 0;
  }
  const lock = lockFlags(p);
  if (typeof lock === "string") {
    uiError(view, `Error parsing command-line flags: ${lock}\n`);
    return 1;
  }
  return { p, c: { view, lock, meta: Meta.fromFlags(io, view, p) } };
}

/** StateMeta.State: state commands back up to `<state>.<unix time>.backup` unless -backup says otherwise. */
function stateMetaOptions(statePath: string | undefined, backup: string | undefined): OpenOptions {
  const stamp = Math.floor(Date.now() / 1000);
  const backupPath = (p: string): string => (backup !== undefined && backup !== "-" && backup !== "" ? backup : `${p}.${stamp}.backup`);
  return statePath === undefined ? { backupPath } : { statePath, backupPath };
}

/**
 * StateMeta.State under the lock, refreshed: `state mv`, `rm` and `replace-provider` on the
 * -state file (or the workspace's state) with its timestamped backup, which must hold a state.
 */
async function withStateMeta(
  io: CommandIO,
  p: ParsedFlags,
  c: Common,
  operation: string,
  refreshFailed: (diagnostics: Diagnostic[]) => void,
  body: (store: StateStore, state: State) => Promise<number>,
): Promise<number> {
  const view = c.view;
  const open = stateMetaOptions(p.strings.get("state"), p.strings.get("backup"));
  const openFailed = (d: Diagnostic[]): void => uiError(view, ERR_STATE_LOADING.replace("%s", diagText(d)));
  return withRefreshedState(c.meta, view, { open, operation, lock: c.lock, openFailed, refreshFailed }, async (store) => {
    const state = store.state();
    if (!state) {
      uiError(view, ERR_STATE_NOT_FOUND);
      return 1;
    }
    return body(store, state);
  });
}

async function stateMv(args: readonly string[], io: CommandIO): Promise<number> {
  const parsed = parseCommon(args, io, { bool: ["dry-run"], string: ["state-out", "backup-out"] }, STATE_MV_HELP);
  if (typeof parsed === "number") return parsed;
  const { p, c } = parsed;
  const view = c.view;
  if (p.positional.length !== 2) {
    uiError(view, "Exactly two arguments expected.\n");
    io.stdout.write(STATE_MV_HELP);
    return 1;
  }
  const [rawSrc, rawDst] = p.positional as [string, string];
  const dryRun = p.bools.get("dry-run") ?? false;
  if (!(await configLoads(c))) return 1;
  const refreshFailed = (which: string) => (d: Diagnostic[]) => view.diagnostics([errorDiag(`Failed to refresh ${which} state`, diagText(d))]);
  return withStateMeta(io, p, c, "state-mv", refreshFailed("source"), async (fromStore, from) => {
    const stateOut = p.strings.get("state-out");
    if (stateOut === undefined || stateOut === "") return moveWithin(io, view, fromStore, undefined, from, from, rawSrc, rawDst, dryRun);
    const toOptions = {
      open: stateMetaOptions(stateOut, p.strings.get("backup-out")),
      operation: "state-mv",
      lock: c.lock,
      openFailed: (d: Diagnostic[]) => uiError(view, ERR_STATE_LOADING.replace("%s", diagText(d))),
      refreshFailed: refreshFailed("destination"),
    };
    return withRefreshedState(c.meta, view, toOptions, (toStore) =>
      moveWithin(io, view, fromStore, toStore, from, toStore.state() ?? new State(), rawSrc, rawDst, dryRun),
    );
  });
}

/** The body of `state mv` once both states are read (`toStore` undefined: within one state). */
async function moveWithin(
  io: CommandIO,
  view: View,
  fromStore: StateStore,
  toStore: StateStore | undefined,
  from: State,
  to: State,
  rawSrc: string,
  rawDst: string,
  dryRun: boolean,
): Promise<number> {
  const src = parseTargetStr(rawSrc);
  const dst = parseTargetStr(rawDst);
  const parseDiags = [...src.diagnostics, ...dst.diagnostics];
  if (hasErrors(parseDiags) || !src.result || !dst.result) {
    view.diagnostics(parseDiags);
    return 1;
  }
  const r = moveStateObjects(from, to, src.result.subject, dst.result.subject, rawDst, dryRun);
  for (const m of r.moves) io.stdout.write(`${dryRun ? "Would move" : "Move"} ${goQuote(m.from)} to ${goQuote(m.to)}\n`);
  if (r.moduleExists) {
    uiError(view, ERR_STATE_MV_DST_EXISTS);
    return 1;
  }
  if (hasErrors(r.diagnostics)) {
    view.diagnostics(r.diagnostics);
    return 1;
  }
  if (dryRun) {
    if (r.moves.length === 0) io.stdout.write("Would have moved nothing.\n");
    return 0;
  }
  const saved = await persistState(toStore ?? fromStore, to);
  if (saved.length === 0 && toStore) saved.push(...(await persistState(fromStore, from)));
  if (hasErrors(saved)) {
    uiError(view, ERR_STATE_PERSIST.replace("%s", diagText(saved)));
    return 1;
  }
  io.stdout.write(r.moves.length === 0 ? "No matching objects found.\n" : `Successfully moved ${r.moves.length} object(s).\n`);
  return 0;
}

async function stateRm(args: readonly string[], io: CommandIO): Promise<number> {
  const parsed = parseCommon(args, io, { bool: ["dry-run"] }, STATE_RM_HELP);
  if (typeof parsed === "number") return parsed;
  const { p, c } = parsed;
  const view = c.view;
  if (p.positional.length === 0) {
    uiError(view, "At least one address is required.\n");
    io.stdout.write(STATE_RM_HELP);
    return 1;
  }
  const dryRun = p.bools.get("dry-run") ?? false;
  if (!(await configLoads(c))) return 1;
  const refreshFailed = (d: Diagnostic[]): void => view.diagnostics([errorDiag("Failed to refresh state", diagText(d))]);
  return withStateMeta(io, p, c, "state-rm", refreshFailed, async (store, state) => {
    const addrs: AbsResourceInstance[] = [];
    const diagnostics: Diagnostic[] = [];
    for (const a of p.positional) {
      const r = lookupAddrs(state, a, true);
      addrs.push(...r.addrs);
      diagnostics.push(...r.diagnostics);
    }
    if (hasErrors(diagnostics)) {
      view.diagnostics(diagnostics);
      return 1;
    }
    for (const a of addrs) io.stdout.write(`${dryRun ? "Would remove" : "Removed"} ${a.toString()}\n`);
    if (dryRun) {
      if (addrs.length === 0) io.stdout.write("Would have removed nothing.\n");
      return 0;
    }
    removeResourceInstances(state, addrs);
    const saved = await persistState(store, state);
    if (hasErrors(saved)) {
      uiError(view, ERR_STATE_PERSIST.replace("%s", diagText(saved)));
      return 1;
    }
    if (addrs.length === 0) {
      view.diagnostics([
        errorDiag(
          "Invalid target address",
          'No matching objects found. To view the available instances, use "terrace state list". Please modify the address to reference a specific instance.',
        ),
      ]);
      return 1;
    }
    io.stdout.write(`Successfully removed ${addrs.length} resource instance(s).\n`);
    return 0;
  });
}

async function readAll(stream: CommandIO["stdin"]): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<unknown>) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array));
  return new Uint8Array(Buffer.concat(chunks));
}

async function statePush(args: readonly string[], io: CommandIO): Promise<number> {
  const parsed = parseCommon(args, io, { bool: ["force"] }, STATE_PUSH_HELP);
  if (typeof parsed === "number") return parsed;
  const { p, c } = parsed;
  const view = c.view;
  if (p.positional.length !== 1) {
    uiError(view, "Exactly one argument expected.\n");
    io.stdout.write(STATE_PUSH_HELP);
    return 1;
  }
  const src = p.positional[0] as string;
  if (!(await configLoads(c))) return 1;
  let bytes: Uint8Array;
  try {
    bytes = src === "-" ? await readAll(io.stdin) : new Uint8Array(await readFile(path.resolve(io.cwd, src)));
  } catch (e) {
    view.diagnostics([errorDiag("Failed to open the given state file", goPathError(e, "open", src))]);
    return 1;
  }
  const read = readStateFile(bytes, { tofuVersion: TOFU_VERSION });
  if (read.kind === "error") {
    view.diagnostics([errorDiag(`Failed to read source state ${goQuote(src)}`, diagText(read.diagnostics))]);
    return 1;
  }
  // An empty file pushes a new, empty state.
  const next: File = read.kind === "ok" ? read.file : newFile(new State(), newLineage(), 0, TOFU_VERSION);
  const force = p.bools.get("force") ?? false;
  const destination = {
    open: {},
    operation: "state-push",
    lock: c.lock,
    openFailed: (d: Diagnostic[]) => view.diagnostics([errorDiag("Failed to load destination state", diagText(d))]),
    refreshFailed: (d: Diagnostic[]) => view.diagnostics([errorDiag("Failed to refresh destination state", diagText(d))]),
  };
  return withRefreshedState(c.meta, view, destination, async (store) => {
    const current = store.state();
    const existing = current ? store.snapshotFile() : undefined;
    if (!force) {
      const bad = checkValidImport(next, existing);
      if (bad !== undefined) {
        view.diagnostics([errorDiag("Failed to write the imported state", bad)]);
        return 1;
      }
    }
    const saved = await importSnapshot(store, next, existing);
    if (hasErrors(saved)) {
      view.diagnostics([errorDiag("Failed to persist state", diagText(saved))]);
      return 1;
    }
    return 0;
  });
}

/**
 * WriteStateForMigration + PersistState: the pushed snapshot keeps its lineage and serial, and
 * the serial goes up by one when the snapshot differs from what the store held (a local file),
 * or unless lineage, serial and content all match (a remote store), as OpenTofu's two stores do.
 */
async function importSnapshot(store: StateStore, next: File, existing: File | undefined): Promise<Diagnostic[]> {
  if (store instanceof LocalStore) {
    const changed = !existing || !statesMarshalEqual(next.state, existing.state);
    return store.writeForMigration(newFile(next.state, next.lineage, next.serial + (changed ? 1 : 0), next.terraformVersion));
  }
  const client = httpClientOf(store);
  if (!client) return [errorDiag("Unsupported backend", "This backend cannot take a pushed state.")];
  const same = existing !== undefined && existing.lineage === next.lineage && existing.serial === next.serial && statesMarshalEqual(next.state, existing.state);
  if (same) return [];
  const w = writeStateFile(newFile(next.state, next.lineage, next.serial + 1, TOFU_VERSION), { terraformVersion: TOFU_VERSION });
  if (!w.ok) return w.diagnostics;
  const put = await client.put(w.bytes);
  return put.ok ? [] : [errorDiag("Failed to save state", `Error saving state: ${put.error}`)];
}

async function stateReplaceProvider(args: readonly string[], io: CommandIO): Promise<number> {
  const parsed = parseCommon(args, io, { bool: ["auto-approve"] }, STATE_REPLACE_PROVIDER_HELP);
  if (typeof parsed === "number") return parsed;
  const { p, c } = parsed;
  const view = c.view;
  if (p.positional.length !== 2) {
    uiError(view, "Exactly two arguments expected.\n");
    io.stdout.write(STATE_REPLACE_PROVIDER_HELP);
    return 1;
  }
  const [rawFrom, rawTo] = p.positional as [string, string];
  const fromP = parseProviderSourceString(rawFrom);
  const toP = parseProviderSourceString(rawTo);
  const pd: Diagnostic[] = [];
  if (!fromP.result) pd.push(errorDiag(`Invalid "from" provider ${goQuote(rawFrom)}`, diagText(fromP.diagnostics)));
  if (!toP.result) pd.push(errorDiag(`Invalid "to" provider ${goQuote(rawTo)}`, diagText(toP.diagnostics)));
  if (!fromP.result || !toP.result) {
    view.diagnostics(pd);
    return 1;
  }
  const from = fromP.result;
  const to = toP.result;
  if (!(await configLoads(c))) return 1;
  const refreshFailed = (d: Diagnostic[]): void => uiError(view, `Failed to refresh source state: ${diagText(d)}`);
  return withStateMeta(io, p, c, "state-replace-provider", refreshFailed, async (store, state) => {
    const willReplace = resourcesUsingProvider(state, from);
    if (willReplace.length === 0) {
      view.println("No matching resources found.");
      return 0;
    }
    view.println("OpenTofu will perform the following actions:\n");
    view.println("  [yellow]~[reset] Updating provider:");
    view.println(`    [red]-[reset] ${from.toString()}`);
    view.println(`    [green]+[reset] ${to.toString()}\n`);
    view.println(`[bold]Changing[reset] ${willReplace.length} resources:\n`);
    for (const rs of willReplace) view.println(`  ${rs.addr.toString()}`);
    if (!(p.bools.get("auto-approve") ?? false)) {
      view.println("\n[bold]Do you want to make these changes?[reset]\nOnly 'yes' will be accepted to continue.\n");
      io.stdout.write("Enter a value: ");
      const answer = await c.meta.prompter.readLine();
      if (answer === undefined) {
        uiError(view, "Error asking for approval: EOF");
        return 1;
      }
      if (answer.trimEnd() !== "yes") {
        view.println("Cancelled replacing providers.");
        return 0;
      }
    }
    replaceProvider(willReplace, to);
    const saved = await persistState(store, state);
    if (hasErrors(saved)) {
      uiError(view, ERR_STATE_PERSIST.replace("%s", diagText(saved)));
      return 1;
    }
    view.println(`\nSuccessfully replaced provider for ${willReplace.length} resources.`);
    return 0;
  });
}

export const stateCommand: Command = async (args, io) => {
  const [sub, ...rest] = args;
  switch (sub) {
    case "list":
      return stateList(rest, io);
    case "show":
      return stateShow(rest, io);
    case "pull":
      return statePull(rest, io);
    case "mv":
    case "move":
      return stateMv(rest, io);
    case "rm":
    case "remove":
      return stateRm(rest, io);
    case "push":
      return statePush(rest, io);
    case "replace-provider":
      return stateReplaceProvider(rest, io);
    default:
      io.stdout.write(STATE_HELP);
      // StateCommand.Run returns RunResultHelp: the help, and exit status 1, unless it was asked for.
      return sub === "-help" || sub === "-h" || sub === "--help" ? 0 : 1;
  }
};
