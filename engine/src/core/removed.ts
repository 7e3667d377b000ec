// `removed` blocks (OpenTofu's refactoring.GetEndpointsToRemove and the removed-statement part of
// NodePlannableResourceInstanceOrphan / NodePlanDeposedResourceInstanceObject): an object whose
// block left the configuration is only forgotten (dropped from state, the remote object left
// alone) when a `removed` block names it or its module, unless that block says
// `lifecycle { destroy = true }`. A `removed` block must not name something still configured.
import { ConfigResource, Module as ModuleAddr, Resource as ResourceAddr, targetContains, type AbsResourceInstance } from "../addrs/index.js";
import { allConfigs, descendent, type Config } from "../configs/index.js";
import { errorDiag, type Diagnostic, type Range } from "../hcl/index.js";
import type { Action } from "../plans/index.js";
import { NotDeposed } from "../states/index.js";
import type { GraphNode } from "./nodes.js";
import type { RunState } from "./run.js";

export interface RemoveStatement {
  /** Absolute: the declaring module's path joined with the block's `from`. */
  readonly from: ConfigResource | ModuleAddr;
  readonly destroy: boolean;
  readonly declRange: Range;
}

const statementsByConfig = new WeakMap<Config, RemoveStatement[]>();

/** Every `removed` block of the configuration tree, made absolute. */
export function removeStatements(config: Config): RemoveStatement[] {
  const cached = statementsByConfig.get(config);
  if (cached) return cached;
  const out: RemoveStatement[] = [];
  for (const c of allConfigs(config)) {
    for (const r of c.module.removed) {
      const a = r.fromAddr;
      if (!a || a.hasKeys) continue; // reported when the configuration was decoded
      const module = new ModuleAddr([...c.path, ...a.module]);
      const from = a.resource ? new ConfigResource(module, new ResourceAddr(a.resource.mode, a.resource.type, a.resource.name)) : module;
      out.push({ from, destroy: r.destroy, declRange: r.declRange });
    }
  }
  statementsByConfig.set(config, out);
  return out;
}

/** Errors for `removed` blocks that name a resource or module still in the configuration. */
export function validateRemoveStatements(config: Config): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const rs of removeStatements(config)) {
    if (rs.from.kind === "ConfigResource") {
      const mc = descendent(config, rs.from.module.steps);
      const r = rs.from.resource;
      const key = r.toString();
      const exists = r.mode === "data" ? mc?.module.dataResources.has(key) : r.mode === "managed" ? mc?.module.managedResources.has(key) : mc?.module.ephemeralResources.has(key);
      if (exists) {
        diagnostics.push(
          errorDiag(
            "Removed resource block still exists",
            `This statement declares a removal of the resource ${rs.from.toString()}, but this resource block still exists in the configuration. Please remove the resource block.`,
            rs.declRange,
          ),
        );
      }
    } else if (descendent(config, rs.from.steps)) {
      diagnostics.push(
        errorDiag(
          "Removed module block still exists",
          `This statement declares a removal of the module ${rs.from.toString()}, but this module block still exists in the configuration. Please remove the module block.`,
          rs.declRange,
        ),
      );
    }
  }
  return diagnostics;
}

/**
 * What to plan for an object with no configuration: Forget when a `removed` block names it
 * (the last matching block decides) and does not ask to destroy it, else Delete. Destroy plans
 * always delete.
 */
export function orphanAction(run: RunState, addr: AbsResourceInstance, deposedKey: string): { action: Extract<Action, "Delete" | "Forget">; diagnostics: Diagnostic[] } {
  if (run.opts.destroy) return { action: "Delete", diagnostics: [] };
  let forget = false;
  for (const rs of removeStatements(run.config)) if (targetContains(rs.from, addr)) forget = !rs.destroy;
  if (!forget) return { action: "Delete", diagnostics: [] };
  const detail =
    deposedKey === NotDeposed
      ? `After this plan gets applied, the resource ${addr.toString()} will not be managed anymore by OpenTofu.\n\nIn case you want to manage the resource again, you will have to import it.`
      : `After this plan is applied, the resource ${addr.toString()} will not be managed anymore by OpenTofu.\n\nIn case you want to manage the resource again, you will have to import it.`;
  const summary = deposedKey === NotDeposed ? "Resource going to be removed from the state" : "Resource will be removed from the state";
  return { action: "Forget", diagnostics: [{ severity: "warning", summary, detail }] };
}

/** Apply of a Forget change: the object leaves state; the provider is not called. */
export function forgetInstance(run: RunState, n: Extract<GraphNode, { kind: "forgetInstance" }>): Diagnostic[] {
  const ch = n.change;
  if (ch.deposedKey !== NotDeposed) run.state.forgetResourceInstanceDeposed(ch.addr, ch.deposedKey);
  else run.state.setResourceInstanceCurrent(ch.addr, undefined, ch.providerAddr, ch.providerKey);
  run.state.removeResourceIfEmpty(ch.addr.containingResource());
  return [];
}
