// Moving objects inside a State (OpenTofu's State.MoveModuleInstance, MoveAbsResource and
// MoveAbsResourceInstance). The state model's addresses are read-only, so a moved module or
// resource is re-created at its new address around the same instance objects. Each function
// expects the caller (applyMoves) to have checked that the source exists and the destination
// does not; breaking that is a bug, so they throw.
import { AbsResource, instanceKeyString, type AbsResourceInstance, type ModuleInstance } from "../addrs/index.js";
import { Module, Resource, ResourceInstance, type State } from "../states/model.js";

function rehomeResource(rs: Resource, addr: AbsResource): Resource {
  const moved = new Resource(addr, rs.providerConfig);
  for (const [k, is] of rs.instances) moved.instances.set(k, is);
  return moved;
}

/** Removes a non-root module that has nothing left in it, as the state never keeps husks. */
function pruneModule(state: State, addr: ModuleInstance): void {
  const ms = state.module(addr);
  if (ms && !addr.isRoot() && ms.empty()) state.removeModule(addr);
}

export function moveModuleInstance(state: State, src: ModuleInstance, dst: ModuleInstance): void {
  if (src.isRoot() || dst.isRoot()) throw new Error("cannot move to or from root module");
  const srcMod = state.module(src);
  if (!srcMod) throw new Error(`no state for src module ${src.toString()}`);
  if (state.module(dst)) throw new Error(`dst module ${dst.toString()} already exists in state`);
  state.removeModule(src);
  const dstMod = new Module(dst);
  for (const [k, rs] of srcMod.resources) dstMod.resources.set(k, rehomeResource(rs, new AbsResource(dst, rs.addr.resource)));
  for (const [k, o] of srcMod.outputValues) dstMod.outputValues.set(k, o);
  for (const [k, v] of srcMod.localValues) dstMod.localValues.set(k, v);
  state.modules.set(dst.toString(), dstMod);
}

export function moveAbsResource(state: State, src: AbsResource, dst: AbsResource): void {
  const rs = state.resource(src);
  if (!rs) throw new Error(`no state for src address ${src.toString()}`);
  if (state.resource(dst)) throw new Error(`dst resource ${dst.toString()} already exists`);
  state.module(src.module)?.removeResource(src.resource);
  pruneModule(state, src.module);
  state.ensureModule(dst.module).resources.set(dst.resource.toString(), rehomeResource(rs, dst));
}

export function moveAbsResourceInstance(state: State, src: AbsResourceInstance, dst: AbsResourceInstance): void {
  const srcIS = state.resourceInstance(src);
  if (!srcIS) throw new Error(`no state for src address ${src.toString()}`);
  if (state.resourceInstance(dst)) throw new Error(`dst resource ${dst.toString()} already exists`);
  const srcProvider = state.resource(src.containingResource())?.providerConfig;
  state.module(src.module)?.forgetResourceInstanceAll(src.resource);
  pruneModule(state, src.module);
  const dstMod = state.ensureModule(dst.module);
  // A new resource takes the moved instance's provider along, as if the whole resource moved;
  // an existing one keeps its own.
  const dstRS = dstMod.resource(dst.resource.resource) ?? dstMod.setResourceProvider(dst.resource.resource, srcProvider);
  const moved = new ResourceInstance(dst.resource.key);
  moved.current = srcIS.current;
  for (const [k, o] of srcIS.deposed) moved.deposed.set(k, o);
  moved.providerKey = srcIS.providerKey;
  dstRS.instances.set(instanceKeyString(dst.resource.key), moved);
}
