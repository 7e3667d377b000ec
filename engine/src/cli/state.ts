// `terrace state list|show|pull`: OpenTofu's command/state_list.go, state_show.go, state_pull.go
// and state_meta.go (address lookup) with the local backend. Read-only.
import { parseAbsResourceInstanceStr, parseTargetStr, targetContains, type AbsResourceInstance } from "../addrs/index.js";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import { State, newFile, writeStateFile, type Module } from "../states/index.js";
import { parseFlags } from "./args.js";
import type { Command, CommandIO } from "./io.js";
import { TOFU_VERSION } from "./plan.js";
import { helpPrompt, loadSchemas, readLocalState, renderHumanState, stateProviders } from "./show.js";
import { View } from "./view.js";

const STATE_HELP = `Usage: terrace [global options] state <subcommand> [options] [args]

  This command has subcommands for advanced state management.

Subcommands:
    list    List resources in the state
    pull    Pull current state and output to stdout
    show    Show a resource in the state
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
`;

const ERR_STATE_NOT_FOUND = `No state file was found!

State management commands require a state file. Run this command
in a directory where OpenTofu has been run or use the -state flag
to point the command to another state file.`;

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

/** StateMeta.lookupResourceInstanceAddr with allowMissing false (what `state list ADDR` does). */
function lookupAddrs(state: State, addrStr: string): { addrs: AbsResourceInstance[]; diagnostics: Diagnostic[] } {
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
      if (!found) {
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

async function stateList(args: readonly string[], io: CommandIO): Promise<number> {
  const p = parseFlags(args, { string: ["state", "id"] });
  const view = new View(io, true);
  if (typeof p === "string") {
    view.diagnostics([errorDiag("Failed to parse command-line flags", p)]);
    helpPrompt(io, "state list");
    return 1;
  }
  const st = await readLocalState(io, p.strings.get("state"));
  if (!st.ok) {
    io.stderr.write(`Failed to load state: ${st.diagnostics.map((d) => d.detail ?? d.summary).join("\n")}\n`);
    return 1;
  }
  if (!st.file) {
    io.stderr.write(`\n${ERR_STATE_NOT_FOUND}\n`);
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
  const p = parseFlags(args, { bool: ["no-color", "show-sensitive"], string: ["state"] });
  const view = new View(io, !args.includes("-no-color"));
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
    io.stderr.write("\nExactly one argument expected.\n");
    io.stdout.write(STATE_SHOW_HELP);
    return 1;
  }
  const addrStr = p.positional[0] as string;
  const parsed = parseAbsResourceInstanceStr(addrStr);
  if (!parsed.result || hasErrors(parsed.diagnostics)) {
    io.stderr.write(`\nError parsing instance address: ${addrStr}\n\n${INSTANCE_HINT}\n`);
    return 1;
  }
  const addr = parsed.result;
  const st = await readLocalState(io, p.strings.get("state"));
  if (!st.ok) {
    io.stderr.write(`Failed to refresh state: ${st.diagnostics.map((d) => d.detail ?? d.summary).join("\n")}\n`);
    return 1;
  }
  if (!st.file) {
    io.stderr.write(`\n${ERR_STATE_NOT_FOUND}\n`);
    return 1;
  }
  const is = st.file.state.resourceInstance(addr);
  const rs = st.file.state.resource(addr.containingResource());
  if (!is || !is.current || !rs) {
    io.stderr.write(`\n${ERR_NO_INSTANCE_FOUND}\n`);
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
  const p = parseFlags(args, {});
  const view = new View(io, true);
  if (typeof p === "string") {
    view.diagnostics([errorDiag("Failed to parse command-line flags", p)]);
    helpPrompt(io, "state pull");
    return 1;
  }
  const st = await readLocalState(io);
  if (!st.ok) {
    io.stderr.write(`Failed to refresh state: ${st.diagnostics.map((d) => d.detail ?? d.summary).join("\n")}\n`);
    return 1;
  }
  if (!st.file) return 0;
  const w = writeStateFile(newFile(st.file.state, st.file.lineage, st.file.serial, TOFU_VERSION), { terraformVersion: TOFU_VERSION });
  if (!w.ok) {
    view.diagnostics(w.diagnostics);
    return 1;
  }
  io.stdout.write(`${w.text}\n`);
  return 0;
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
    default:
      io.stdout.write(STATE_HELP);
      return sub === undefined || sub === "-help" || sub === "-h" || sub === "--help" ? 0 : 1;
  }
};
