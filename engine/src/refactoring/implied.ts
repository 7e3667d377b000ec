// Implied move statements (OpenTofu's ImpliedMoveStatements): the moves OpenTofu infers when
// `count` is added to or removed from a resource or a module call that already has objects in
// state, so that the no-key object becomes `[0]` and back, as Terraform ≤ 1.0 did before
// `moved` blocks existed. Only these two rules exist on purpose; no new ones should be added.
import {
  AbsModuleCall,
  Module,
  ModuleCall,
  MoveEndpointInModule,
  NoKey,
  RootModule,
  impliedMoveStatementEndpoint,
  instanceKeyEqual,
  intKey,
  type AbsResource,
  type InstanceKey,
  type ModuleInstance,
} from "../addrs/index.js";
import type { Config, Resource as ResourceConfig } from "../configs/index.js";
import type { Range } from "../hcl/index.js";
import type { State, Module as ModuleState } from "../states/model.js";
import type { MoveStatement } from "./statement.js";

/**
 * The implied statements for the whole tree, given the explicit ones: an object named by an
 * explicit statement is left alone, because the user may have chosen a key other than zero.
 */
export function impliedMoveStatements(config: Config, prevRunState: State, explicit: readonly MoveStatement[]): MoveStatement[] {
  const into: MoveStatement[] = [];
  const modAddr = new Module(config.path);
  for (const name of [...config.module.moduleCalls.keys()].sort()) {
    const call = config.module.moduleCalls.get(name);
    if (call) into.push(...impliedForModuleCall(prevRunState, modAddr, name, call, explicit));
  }
  for (const ms of stateModuleInstances(prevRunState, modAddr)) {
    into.push(...impliedForModuleResources(config, ms, explicit));
  }
  for (const name of [...config.children.keys()].sort()) {
    const child = config.children.get(name);
    if (child) into.push(...impliedMoveStatements(child, prevRunState, explicit));
  }
  return into;
}

/** The state's module instances of one static module path, in address order. */
function stateModuleInstances(state: State, mod: Module): ModuleState[] {
  const out: ModuleState[] = [];
  for (const ms of state.modules.values()) if (ms.addr.isForModule(mod)) out.push(ms);
  return out.sort((a, b) => a.addr.compare(b.addr));
}

interface RepetitionOwner {
  count: { range: Range } | undefined;
  forEach: unknown;
  declRange: Range;
}

/**
 * The key a single remaining instance has under the configuration's repetition: `[0]` with
 * count, none without count or for_each (which includes `lifecycle { enabled }`, whose one
 * instance has no key), undefined for for_each (no implied moves).
 */
function impliedKey(owner: RepetitionOwner): { key: InstanceKey; range: Range } | undefined {
  if (owner.count) return { key: intKey(0), range: owner.count.range };
  if (owner.forEach === undefined) return { key: NoKey, range: owner.declRange };
  return undefined;
}

function impliedForModuleCall(
  prevRunState: State,
  parent: Module,
  name: string,
  call: RepetitionOwner,
  explicit: readonly MoveStatement[],
): MoveStatement[] {
  const into: MoveStatement[] = [];
  const want = impliedKey(call);
  if (!want) return into;
  // As for resources, only the one instance the other setting would have had moves: [0] ↔ no key.
  const otherKey: InstanceKey = want.key.kind === "NoKey" ? intKey(0) : NoKey;
  for (const ms of stateModuleInstances(prevRunState, parent.child(name))) {
    const { parent: callerAddr, call: callInst } = ms.addr.callInstance();
    const fromKey = callInst.key;
    if (!instanceKeyEqual(fromKey, otherKey) || haveMoveStatementForModule(ms.addr, explicit)) continue;
    const absCall = new AbsModuleCall(callerAddr, new ModuleCall(name));
    into.push({
      from: new MoveEndpointInModule(RootModule, absCall.instance(fromKey), want.range),
      to: new MoveEndpointInModule(RootModule, absCall.instance(want.key), want.range),
      declRange: want.range,
      implied: true,
    });
  }
  return into;
}

function resourceConfig(cfg: Config, addr: AbsResource): ResourceConfig | undefined {
  const r = addr.resource;
  switch (r.mode) {
    case "managed":
      return cfg.module.managedResources.get(r.toString());
    case "data":
      return cfg.module.dataResources.get(r.toString());
    case "ephemeral":
      return cfg.module.ephemeralResources.get(r.toString());
  }
}

function impliedForModuleResources(cfg: Config, ms: ModuleState, explicit: readonly MoveStatement[]): MoveStatement[] {
  const into: MoveStatement[] = [];
  const resources = [...ms.resources.values()].sort((a, b) => a.addr.compare(b.addr));
  for (const rs of resources) {
    const rCfg = resourceConfig(cfg, rs.addr);
    // Without configuration there is nothing to fix up.
    if (!rCfg) continue;
    const want = impliedKey(rCfg);
    if (!want) continue;
    // Which key the one surviving instance would have had under the other setting. Whether the
    // destination is already occupied is left to applyMoves, which treats explicit and implied
    // statements alike.
    const fromKey: InstanceKey = want.key.kind === "NoKey" ? intKey(0) : NoKey;
    if (!rs.instance(fromKey)) continue;
    if (haveMoveStatementForResource(rs.addr, explicit)) continue;
    into.push({
      from: impliedMoveStatementEndpoint(rs.addr.instance(fromKey), want.range),
      to: impliedMoveStatementEndpoint(rs.addr.instance(want.key), want.range),
      declRange: want.range,
      implied: true,
    });
  }
  return into;
}

function haveMoveStatementForResource(addr: AbsResource, stmts: readonly MoveStatement[]): boolean {
  return stmts.some((s) => s.from.selectsResource(addr) || s.to.selectsResource(addr));
}

function haveMoveStatementForModule(addr: ModuleInstance, stmts: readonly MoveStatement[]): boolean {
  return stmts.some((s) => s.from.selectsModule(addr) || s.to.selectsModule(addr));
}
