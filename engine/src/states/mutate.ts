// State surgery for the CLI's state commands (OpenTofu's command/state_mv.go, state_rm.go,
// state_replace_provider.go, taint.go, untaint.go and statemgr.CheckValidImport), as pure
// functions over the state model: each takes a State, changes it in place (or only reports, for a
// dry run) and returns what it did plus diagnostics with OpenTofu's texts. Reading, locking and
// persisting are the caller's job.
import {
  AbsProviderConfig,
  AbsResource,
  AbsResourceInstance,
  ModuleInstance,
  NoKey,
  targetContains,
  type Provider,
  type Targetable,
} from "../addrs/index.js";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import { statesMarshalEqual, type File } from "./file.js";
import { ObjectReady, ObjectTainted } from "./objects.js";
import { Module, Resource, type State } from "./state.js";

// ---------------------------------------------------------------------------------------------
// state mv

export interface MoveResult {
  /** Each object moved (or, in a dry run, that would be), as the CLI prints it. */
  readonly moves: Array<{ readonly from: string; readonly to: string }>;
  readonly diagnostics: Diagnostic[];
  /** OpenTofu's special "destination module already exists" failure (not a diagnostic there). */
  readonly moduleExists: boolean;
}

const MSG_INVALID_SOURCE = "Invalid source address";
const MSG_INVALID_TARGET = "Invalid target address";
const MSG_INVALID_REQUEST = "Invalid state move request";

/**
 * StateMvCommand.sourceObjectAddrs: a module stands for itself and every module below it; a
 * resource without instance keys in state stands for its single instance (so
 * `state mv a.b a.c[1]` works).
 */
export function sourceObjectAddrs(state: State, matched: Targetable): Targetable[] {
  switch (matched.kind) {
    case "ModuleInstance": {
      const out: ModuleInstance[] = [];
      for (const m of state.modules.values()) {
        if (m.addr.steps.length < matched.steps.length) continue;
        if (!new ModuleInstance(m.addr.steps.slice(0, matched.steps.length)).equal(matched)) continue;
        out.push(m.addr);
      }
      return out;
    }
    case "AbsResource": {
      const rs = state.resource(matched);
      if (!rs) return [];
      return rs.instance(NoKey) ? [matched.instance(NoKey)] : [matched];
    }
    default:
      return [matched];
  }
}

/** StateMvCommand.validateResourceMove. */
export function validateResourceMove(from: AbsResource, to: AbsResource): Diagnostic[] {
  const out: Diagnostic[] = [];
  const fm = from.resource.mode;
  const tm = to.resource.mode;
  if (fm === "ephemeral" || tm === "ephemeral") {
    return [errorDiag(MSG_INVALID_REQUEST, "Ephemeral resources cannot be used as sources or targets for the move action. Just update your configuration accordingly.")];
  }
  if (fm !== tm) {
    const what = fm === "managed" ? "a managed resource can be moved only to another managed resource address" : "a data resource can be moved only to another data resource address";
    out.push(errorDiag(MSG_INVALID_REQUEST, `Cannot move ${from.toString()} to ${to.toString()}: ${what}.`));
  }
  if (from.resource.type !== to.resource.type) {
    out.push(errorDiag(MSG_INVALID_REQUEST, `Cannot move ${from.toString()} to ${to.toString()}: resource types don't match.`));
  }
  return out;
}

/** A copy of a module's contents under a new address (a state Module's address is fixed). */
function rehomeModule(m: Module, addr: ModuleInstance): Module {
  const out = new Module(addr);
  for (const [k, rs] of m.resources) {
    const moved = new Resource(new AbsResource(addr, rs.addr.resource), rs.providerConfig);
    for (const [ik, is] of rs.instances) moved.instances.set(ik, is);
    out.resources.set(k, moved);
  }
  for (const [k, o] of m.outputValues) out.outputValues.set(k, o);
  for (const [k, v] of m.localValues) out.localValues.set(k, v);
  return out;
}

/** Drops recorded dependencies that point into (or contain) what moved, so apply rebuilds them. */
function forgetDependenciesOn(state: State, moved: Targetable): void {
  for (const rs of state.allResources()) {
    for (const is of rs.instances.values()) {
      const cur = is.current;
      if (!cur) continue;
      if (cur.dependencies.some((d) => targetContains(d, moved) || targetContains(moved, d))) cur.dependencies = [];
    }
  }
}

/**
 * Moves what `src` matches in `from` to `dst` in `to` (the same State for a move within one
 * state), as `tofu state mv` does. `rawDest` is the destination as typed, which OpenTofu prints
 * for instance moves. Stops at the first error; a dry run changes nothing that is persisted.
 */
export function moveStateObjects(from: State, to: State, src: Targetable, dst: Targetable, rawDest: string, dryRun: boolean): MoveResult {
  const moves: Array<{ from: string; to: string }> = [];
  const diagnostics: Diagnostic[] = [];
  const fail = (d: Diagnostic[], moduleExists = false): MoveResult => ({ moves, diagnostics: [...diagnostics, ...d], moduleExists });
  const sources = sourceObjectAddrs(from, src);
  if (sources.length === 0) {
    return fail([errorDiag(MSG_INVALID_SOURCE, `Cannot move ${src.toString()}: does not match anything in the current state.`)]);
  }
  for (const addrFrom of sources) {
    switch (addrFrom.kind) {
      case "ModuleInstance": {
        if (dst.kind !== "ModuleInstance") {
          return fail([errorDiag(MSG_INVALID_TARGET, `Cannot move ${addrFrom.toString()} to ${dst.toString()}: the target must also be a module.`)]);
        }
        const search = src as ModuleInstance;
        const addrTo = new ModuleInstance([...dst.steps, ...addrFrom.steps.slice(search.steps.length)]);
        if (to.module(addrTo)) return fail([], true);
        const ms = from.module(addrFrom);
        if (!ms) return fail([errorDiag(MSG_INVALID_SOURCE, `The current state does not contain ${addrFrom.toString()}.`)]);
        moves.push({ from: addrFrom.toString(), to: addrTo.toString() });
        if (!dryRun) {
          from.removeModule(addrFrom);
          to.modules.set(addrTo.toString(), rehomeModule(ms, addrTo));
        }
        break;
      }
      case "AbsResource": {
        if (dst.kind !== "AbsResource") {
          return fail([
            errorDiag(
              MSG_INVALID_TARGET,
              `Cannot move ${addrFrom.toString()} to ${dst.toString()}: the source is a whole resource (not a resource instance) so the target must also be a whole resource.`,
            ),
          ]);
        }
        const d = validateResourceMove(addrFrom, dst);
        if (to.resource(dst)) d.push(errorDiag(MSG_INVALID_TARGET, `Cannot move to ${dst.toString()}: there is already a resource at that address in the current state.`));
        const rs = from.resource(addrFrom);
        if (!rs) d.push(errorDiag(MSG_INVALID_SOURCE, `The current state does not contain ${addrFrom.toString()}.`));
        if (hasErrors(d) || !rs) return fail(d);
        moves.push({ from: addrFrom.toString(), to: dst.toString() });
        if (!dryRun) {
          from.module(addrFrom.module)?.removeResource(addrFrom.resource);
          const moved = new Resource(dst, rs.providerConfig);
          for (const [k, is] of rs.instances) moved.instances.set(k, is);
          to.ensureModule(dst.module).resources.set(dst.resource.toString(), moved);
        }
        break;
      }
      case "AbsResourceInstance": {
        let addrTo: AbsResourceInstance;
        if (dst.kind === "AbsResourceInstance") addrTo = dst;
        else if (dst.kind === "AbsResource") addrTo = dst.instance(NoKey);
        else {
          return fail([errorDiag(MSG_INVALID_TARGET, `Cannot move ${addrFrom.toString()} to ${dst.toString()}: the target must also be a resource instance.`)]);
        }
        const d = validateResourceMove(addrFrom.containingResource(), addrTo.containingResource());
        to.ensureModule(addrTo.module);
        if (to.resourceInstance(addrTo)) {
          d.push(errorDiag(MSG_INVALID_TARGET, `Cannot move to ${addrTo.toString()}: there is already a resource instance at that address in the current state.`));
        }
        const is = from.resourceInstance(addrFrom);
        if (!is) d.push(errorDiag(MSG_INVALID_SOURCE, `The current state does not contain ${addrFrom.toString()}.`));
        if (hasErrors(d) || !is) return fail(d);
        moves.push({ from: addrFrom.toString(), to: rawDest });
        if (!dryRun) {
          const fromRs = from.resource(addrFrom.containingResource());
          const provider = fromRs?.providerConfig;
          from.module(addrFrom.module)?.forgetResourceInstanceAll(addrFrom.resource);
          const toModule = to.ensureModule(addrTo.module);
          // Moving to an address without a resource yet brings the provider along, as if the
          // whole resource had moved.
          const rs = toModule.resource(addrTo.resource.resource) ?? toModule.setResourceProvider(addrTo.resource.resource, provider);
          const moved = is.deepCopy();
          const placed = rs.ensureInstance(addrTo.resource.key);
          placed.current = moved.current;
          placed.providerKey = moved.providerKey;
          for (const [k, o] of moved.deposed) placed.deposed.set(k, o);
        }
        break;
      }
      default:
        return fail([errorDiag(MSG_INVALID_SOURCE, `Cannot move ${addrFrom.toString()}: OpenTofu doesn't know how to move this object.`)]);
    }
    forgetDependenciesOn(to, addrFrom);
  }
  return { moves, diagnostics, moduleExists: false };
}

// ---------------------------------------------------------------------------------------------
// state rm

/** Forgets every object of the given instances; empty resources and modules go too. */
export function removeResourceInstances(state: State, addrs: readonly AbsResourceInstance[]): void {
  for (const a of addrs) state.module(a.module)?.forgetResourceInstanceAll(a.resource);
  state.pruneModules();
}

// ---------------------------------------------------------------------------------------------
// state replace-provider

/** The resources whose provider is `from`, in the order they are listed (module, then address). */
export function resourcesUsingProvider(state: State, from: Provider): Resource[] {
  const out: Resource[] = [];
  for (const rs of state.allResources()) if (rs.providerConfig?.provider.equal(from)) out.push(rs);
  return out.sort((a, b) => a.addr.compare(b.addr));
}

/** Points each resource at `to`, keeping its configuration's module and alias. */
export function replaceProvider(resources: readonly Resource[], to: Provider): void {
  for (const rs of resources) {
    const pc = rs.providerConfig;
    if (pc) rs.providerConfig = new AbsProviderConfig(pc.module, to, pc.alias);
  }
}

// ---------------------------------------------------------------------------------------------
// taint / untaint

export type TaintResult = { ok: true } | { ok: false; missing: boolean; diagnostics: Diagnostic[] };

/**
 * Marks the current object of an instance tainted (or, with `tainted` false, ready again), with
 * the errors of `tofu taint` / `tofu untaint`. `missing` says the failure is one that
 * -allow-missing turns into a warning.
 */
export function setTainted(state: State, addr: AbsResourceInstance, tainted: boolean): TaintResult {
  if (state.empty()) {
    return {
      ok: false,
      missing: true,
      diagnostics: [
        errorDiag(
          "No such resource instance",
          "The state currently contains no resource instances whatsoever. This may occur if the configuration has never been applied or if it has recently been destroyed.",
        ),
      ],
    };
  }
  const is = state.resourceInstance(addr);
  if (!is) {
    return {
      ok: false,
      missing: true,
      diagnostics: [
        errorDiag(
          "No such resource instance",
          `There is no resource instance in the state with the address ${addr.toString()}. If the resource configuration has just been added, you must run "tofu apply" once to create the corresponding instance(s) before they can be tainted.`,
        ),
      ],
    };
  }
  const obj = is.current;
  if (!obj) {
    const detail =
      is.deposed.size > 0
        ? `Resource instance ${addr.toString()} is currently part-way through a create_before_destroy replacement action. Run "tofu apply" to complete its replacement before tainting it.`
        : `Resource instance ${addr.toString()} does not currently have a remote object associated with it, so it cannot be tainted.`;
    return { ok: false, missing: false, diagnostics: [errorDiag("No such resource instance", detail)] };
  }
  if (!tainted && obj.status !== ObjectTainted) {
    return {
      ok: false,
      missing: false,
      diagnostics: [errorDiag("Resource instance is not tainted", `Resource instance ${addr.toString()} is not currently tainted, and so it cannot be untainted.`)],
    };
  }
  obj.status = tainted ? ObjectTainted : ObjectReady;
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------
// state push

/**
 * statemgr.CheckValidImport: may `next` replace `existing` without -force? An error text when
 * not. An empty or absent existing state can always be replaced; a missing lineage on either
 * side is a legacy state, which anything may replace.
 */
export function checkValidImport(next: File, existing: File | undefined): string | undefined {
  if (!existing || existing.state.empty()) return undefined;
  if (next.lineage === "" || existing.lineage === "") return undefined;
  if (next.lineage !== existing.lineage) {
    return `cannot import state with lineage ${JSON.stringify(next.lineage)} over unrelated state with lineage ${JSON.stringify(existing.lineage)}`;
  }
  if (next.serial > existing.serial) return undefined;
  if (next.serial < existing.serial) return `cannot import state with serial ${next.serial} over newer state with serial ${existing.serial}`;
  if (statesMarshalEqual(next.state, existing.state)) return undefined;
  return `cannot overwrite existing state with serial ${next.serial} with a different state that has the same serial`;
}
