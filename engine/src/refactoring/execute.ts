// Executing move statements against a state (OpenTofu's ApplyMoves). Statements run in
// dependency order, so an object can travel along a chain of moves; each statement is tried
// against every module instance, then (for resource statements) every resource and instance.
// A move whose destination is already occupied is skipped and recorded as blocked: the object
// at the destination wins. Invalid statements never fail here; validateMoves reports them
// after planning, and a cyclic set of statements moves nothing.
import {
  absResourceInstanceMoveDestination,
  absResourceMoveDestination,
  moduleInstanceMoveDestination,
  uniqueKey,
  type AbsMoveable,
  type AbsResourceInstance,
} from "../addrs/index.js";
import type { Module as ModuleState, State } from "../states/model.js";
import { buildMoveStatementGraph, dependenciesFirstOrder, moveGraphCycles } from "./graph.js";
import { MoveResults } from "./results.js";
import { moveAbsResource, moveAbsResourceInstance, moveModuleInstance } from "./statemove.js";
import { statementObjectKind, type MoveStatement } from "./statement.js";

/** Moves objects in `state` (mutated in place: pass a copy) and says what moved where. */
export function applyMoves(statements: readonly MoveStatement[], state: State): MoveResults {
  const results = new MoveResults();
  if (statements.length === 0) return results;
  const g = buildMoveStatementGraph(statements);
  if (moveGraphCycles(g).length > 0) return results;

  const recordOldAddr = (oldAddr: AbsResourceInstance, newAddr: AbsResourceInstance, implied: boolean): void => {
    // A chain of moves is summarised as one entry from its start to its end.
    const prev = results.changes.get(uniqueKey(oldAddr));
    let from = oldAddr;
    if (prev) {
      results.changes.delete(uniqueKey(oldAddr));
      from = prev.from;
      implied = implied && prev.implied;
    }
    results.changes.set(uniqueKey(newAddr), { from, to: newAddr, implied });
  };
  const recordBlockage = (actual: AbsMoveable, wanted: AbsMoveable): void => {
    results.blocked.set(uniqueKey(actual), { wanted, actual });
  };

  for (const idx of dependenciesFirstOrder(g)) {
    const stmt = statements[idx] as MoveStatement;
    // A snapshot, since moving changes the module map; a module moved away meanwhile is skipped.
    const modules = [...state.modules.values()].sort((a, b) => a.addr.compare(b.addr));
    for (const ms of modules) {
      if (state.modules.get(ms.addr.toString()) !== ms) continue;
      switch (statementObjectKind(stmt)) {
        case "module":
          applyModuleStatement(stmt, ms, state, recordOldAddr, recordBlockage);
          break;
        case "resource":
          applyResourceStatement(stmt, ms, state, recordOldAddr, recordBlockage);
          break;
      }
    }
  }
  return results;
}

type RecordOld = (oldAddr: AbsResourceInstance, newAddr: AbsResourceInstance, implied: boolean) => void;
type RecordBlocked = (actual: AbsMoveable, wanted: AbsMoveable) => void;

function applyModuleStatement(stmt: MoveStatement, ms: ModuleState, state: State, recordOldAddr: RecordOld, recordBlockage: RecordBlocked): void {
  const modAddr = ms.addr;
  const newAddr = moduleInstanceMoveDestination(modAddr, stmt.from, stmt.to);
  if (!newAddr) return;
  if (state.module(newAddr)) {
    recordBlockage(modAddr, newAddr);
    return;
  }
  for (const rs of ms.resources.values()) {
    for (const is of rs.instances.values()) {
      recordOldAddr(rs.addr.resource.instance(is.key).absolute(modAddr), rs.addr.resource.instance(is.key).absolute(newAddr), stmt.implied);
    }
  }
  moveModuleInstance(state, modAddr, newAddr);
}

function applyResourceStatement(stmt: MoveStatement, ms: ModuleState, state: State, recordOldAddr: RecordOld, recordBlockage: RecordBlocked): void {
  // A resource statement names its module exactly, so only one module instance level matches.
  if (!stmt.from.selectsModule(ms.addr)) return;
  const resources = [...ms.resources.values()].sort((a, b) => a.addr.compare(b.addr));
  for (const rs of resources) {
    if (ms.resources.get(rs.addr.resource.toString()) !== rs) continue;
    const rAddr = rs.addr;
    const newAddr = absResourceMoveDestination(rAddr, stmt.from, stmt.to);
    if (newAddr) {
      if (state.resource(newAddr)) {
        recordBlockage(rAddr, newAddr);
        continue;
      }
      for (const is of rs.instances.values()) recordOldAddr(rAddr.instance(is.key), newAddr.instance(is.key), stmt.implied);
      moveAbsResource(state, rAddr, newAddr);
      continue;
    }
    for (const is of [...rs.instances.values()]) {
      const iAddr = rAddr.instance(is.key);
      const newInst = absResourceInstanceMoveDestination(iAddr, stmt.from, stmt.to);
      if (!newInst) continue;
      if (state.resourceInstance(newInst)) {
        recordBlockage(iAddr, newInst);
        continue;
      }
      recordOldAddr(iAddr, newInst, stmt.implied);
      moveAbsResourceInstance(state, iAddr, newInst);
    }
  }
}
