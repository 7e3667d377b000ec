// Changes made outside OpenTofu (context_plan.go's driftedResources): the difference between the
// previous run's state (objects upgraded, not refreshed) and the refreshed prior state, as
// resource changes. Which attributes of those objects the planned changes depend on (so the plan
// view can leave out drift nothing cares about) is relevance.ts.
import type { Diagnostic } from "../hcl/index.js";
import { newResourceInstanceChange, type ResourceInstanceChange } from "../plans/index.js";
import { impliedType } from "../providers/index.js";
import { decodeObject, objectSrcEqual, type ResourceInstanceObjectSrc, type State } from "../states/index.js";
import { nullVal, rawEquals, type Value } from "../values/index.js";
import type { ProviderManager } from "./providers.js";
import { MoveResults } from "../refactoring/index.js";

/** State.ManagedResourcesEqual: the same managed objects (current and deposed) in both. */
export function managedResourcesEqual(a: State, b: State): boolean {
  const objects = (s: State): Map<string, ResourceInstanceObjectSrc> => {
    const out = new Map<string, ResourceInstanceObjectSrc>();
    for (const rs of s.allResources()) {
      if (rs.addr.resource.mode !== "managed") continue;
      for (const is of rs.instances.values()) {
        const base = rs.addr.instance(is.key).toString();
        if (is.current) out.set(base, is.current);
        for (const [k, o] of is.deposed) out.set(`${base}|${k}`, o);
      }
    }
    return out;
  };
  const oa = objects(a);
  const ob = objects(b);
  if (oa.size !== ob.size) return false;
  for (const [k, o] of oa) {
    const other = ob.get(k);
    if (!other || !objectSrcEqual(o, other)) return false;
  }
  return true;
}

/**
 * driftedResources: one change per managed instance whose current object differs between the
 * two states (Delete when it is gone, Update when its value changed), or that a `moved` block
 * brought to a new address (NoOp, with its previous address). Deposed objects are never drift.
 * Objects that cannot be decoded are warnings, not errors: drift is best effort.
 */
export function driftedResources(
  providers: ProviderManager,
  prevRun: State,
  prior: State,
  moves: MoveResults = new MoveResults(),
): { changes: ResourceInstanceChange[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const changes: ResourceInstanceChange[] = [];
  if (managedResourcesEqual(prevRun, prior) && moves.changes.size === 0) return { changes, diagnostics };
  for (const rs of prevRun.allResources()) {
    if (rs.addr.resource.mode !== "managed" || !rs.providerConfig) continue;
    const provider = rs.providerConfig;
    const schema = providers.resourceTypeSchema(provider.provider, "managed", rs.addr.resource.type);
    if (!schema) {
      diagnostics.push({ severity: "warning", summary: "Missing resource schema from provider", detail: `No resource schema found for ${rs.addr.resource.type} when decoding prior state` });
      continue;
    }
    const ty = impliedType(schema.block);
    for (const is of rs.instances.values()) {
      if (!is.current) continue;
      const addr = rs.addr.instance(is.key);
      const oldObj = decodeObject(is.current, ty);
      if (!oldObj.ok) {
        diagnostics.push({ severity: "warning", summary: "Failed to decode resource from state", detail: `Error decoding ${JSON.stringify(addr.toString())} from prior state: ${oldObj.error}` });
        continue;
      }
      const newSrc = prior.resourceInstance(addr)?.current;
      let newVal: Value = nullVal(ty);
      if (newSrc) {
        const d = decodeObject(newSrc, ty);
        if (!d.ok) {
          diagnostics.push({ severity: "warning", summary: "Failed to decode resource from state", detail: `Error decoding ${JSON.stringify(addr.toString())} from prior state: ${d.error}` });
          continue;
        }
        newVal = d.value.value;
      }
      const oldVal = oldObj.value.value;
      const prevRunAddr = moves.oldAddr(addr);
      const same = rawEquals(oldVal, newVal);
      if (same && addr.equal(prevRunAddr)) continue;
      const action = newVal.kind === "null" ? "Delete" : same ? "NoOp" : "Update";
      changes.push(
        newResourceInstanceChange({
          addr,
          prevRunAddr,
          providerAddr: provider,
          providerKey: is.providerKey,
          change: { action, before: oldVal, after: newVal, generatedConfig: "" },
        }),
      );
    }
  }
  changes.sort((a, b) => a.addr.compare(b.addr));
  return { changes, diagnostics };
}
