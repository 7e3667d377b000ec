// Resource instance values for assertions: from a plan (planned values, unknowns included; the
// refreshed prior state for objects without a change) or from a state (decoded with the provider
// schemas the run was planned with). Grouped by module path and resource for scope.ts.
import type { InstanceKey } from "../addrs/index.js";
import { newSchemas, type Plan, type ProviderSchemaSet } from "../plans/index.js";
import { impliedType } from "../providers/index.js";
import { decodeObject, type State } from "../states/index.js";
import { markSensitiveBySchema } from "../core/schemabody.js";
import { SENSITIVE, markWithPaths, type Value } from "../values/index.js";
import type { ModuleResourceValues } from "./scope.js";

export function instanceKeyString(k: InstanceKey): string {
  switch (k.kind) {
    case "NoKey":
      return "";
    case "IntKey":
      return String(k.value);
    case "StringKey":
      return k.value;
  }
}

function put(out: Map<string, ModuleResourceValues>, module: string, resource: string, key: string, v: Value): void {
  let m = out.get(module);
  if (!m) out.set(module, (m = new Map()));
  let r = m.get(resource);
  if (!r) m.set(resource, (r = new Map()));
  r.set(key, v);
}

/**
 * The current objects of a state, decoded; with `schemaSensitive`, also marked sensitive where
 * their schemas say so (as core's evaluator reads objects; the console shows them that way).
 */
export function stateResourceValues(state: State, schemas: ReadonlyMap<string, ProviderSchemaSet>, opts: { schemaSensitive?: boolean } = {}): Map<string, ModuleResourceValues> {
  const out = new Map<string, ModuleResourceValues>();
  for (const rs of state.allResources()) {
    const provider = rs.providerConfig?.provider.toString() ?? "";
    const mode = rs.addr.resource.mode;
    const schema = newSchemas(new Map(schemas)).resourceTypeConfig(provider, mode === "data" ? "data" : "managed", rs.addr.resource.type);
    if (!schema) continue;
    for (const is of rs.instances.values()) {
      if (!is.current) continue;
      const d = decodeObject(is.current, impliedType(schema.block));
      if (!d.ok) continue;
      const v = opts.schemaSensitive ? markSensitiveBySchema(schema.block, d.value.value) : d.value.value;
      put(out, rs.addr.module.toString(), rs.addr.resource.toString(), instanceKeyString(is.key), v);
    }
  }
  return out;
}

/** Planned values over the plan's prior state. */
export function planResourceValues(plan: Plan, schemas: ReadonlyMap<string, ProviderSchemaSet>): Map<string, ModuleResourceValues> {
  const out = stateResourceValues(plan.priorState, schemas);
  for (const c of plan.changes.resources) {
    if (c.deposedKey !== "") continue;
    const module = c.addr.module.toString();
    const resource = c.addr.resource.resource.toString();
    const key = instanceKeyString(c.addr.resource.key);
    if (c.change.action === "Delete") {
      out.get(module)?.get(resource)?.delete(key);
      continue;
    }
    put(out, module, resource, key, c.change.after);
  }
  return out;
}

/** Root outputs after an apply. */
export function stateOutputs(state: State): Map<string, Value> {
  const out = new Map<string, Value>();
  for (const o of state.rootModule().outputValues.values()) out.set(o.name, o.sensitive ? markWithPaths(o.value, [{ path: [], marks: new Set([SENSITIVE]) }]) : o.value);
  return out;
}

/** Root outputs as planned. */
export function planOutputs(plan: Plan): Map<string, Value> {
  const out = stateOutputs(plan.priorState);
  for (const o of plan.changes.outputs) {
    if (o.change.action === "Delete") out.delete(o.addr.outputValue.name);
    else out.set(o.addr.outputValue.name, o.change.after);
  }
  return out;
}
