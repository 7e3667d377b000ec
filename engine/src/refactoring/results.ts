// What applyMoves did (OpenTofu's MoveResults): for each resource instance that now lives at a
// new address, where it lived in the previous run (the plan's prevRunAddr); and each move that
// could not happen because something already occupied its destination.
import { uniqueKey, type AbsMoveable, type AbsResourceInstance } from "../addrs/index.js";
import type { Diagnostic } from "../hcl/index.js";

export interface MoveSuccess {
  /** The address in the previous run state (the start of a chain of moves). */
  readonly from: AbsResourceInstance;
  readonly to: AbsResourceInstance;
  /**
   * True when only implied statements (count added or removed) moved the object. Providers are
   * asked to MoveResourceState only for explicit `moved` blocks.
   */
  readonly implied: boolean;
}

export interface MoveBlocked {
  /** Where the object wanted to go. */
  readonly wanted: AbsMoveable;
  /** Where it stayed (possibly partway along a chain). */
  readonly actual: AbsMoveable;
}

export class MoveResults {
  /** By the new address's uniqueKey, in the order the moves happened. */
  readonly changes = new Map<string, MoveSuccess>();
  /** By the blocked object's uniqueKey, in the order the blockages happened. */
  readonly blocked = new Map<string, MoveBlocked>();

  /** Whether the instance now at `addr` came from somewhere else. */
  addrMoved(addr: AbsResourceInstance): boolean {
    return this.changes.has(uniqueKey(addr));
  }

  /** The move that brought an instance to `addr`, if any. */
  change(addr: AbsResourceInstance): MoveSuccess | undefined {
    return this.changes.get(uniqueKey(addr));
  }

  /** The previous-run address of the instance now at `addr` (itself when it did not move). */
  oldAddr(addr: AbsResourceInstance): AbsResourceInstance {
    return this.change(addr)?.from ?? addr;
  }
}

/**
 * OpenTofu's warning for blocked moves; undefined when there were none. OpenTofu shows it only
 * when planning produced no errors (invalid statements are the likelier cause then).
 */
export function blockedMovesWarning(results: MoveResults): Diagnostic | undefined {
  if (results.blocked.size === 0) return undefined;
  let items = "";
  for (const b of results.blocked.values()) items += `\n  - ${b.actual.toString()} could not move to ${b.wanted.toString()}`;
  return {
    severity: "warning",
    summary: "Unresolved resource instance address changes",
    detail:
      "OpenTofu tried to adjust resource instance addresses in the prior state based on change information recorded in the configuration, but some adjustments did not succeed due to existing objects already at the intended addresses:" +
      items +
      '\n\nOpenTofu has planned to destroy these objects. If OpenTofu\'s proposed changes aren\'t appropriate, you must first resolve the conflicts using the "tofu state" subcommands and then create a new plan.',
  };
}
