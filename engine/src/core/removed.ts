// `removed` blocks (OpenTofu's refactoring.GetEndpointsToRemove and the removed-statement part of
// NodePlannableResourceInstanceOrphan / NodePlanDeposedResourceInstanceObject): an object whose
// block left the configuration is only forgotten (dropped from state, the remote object left
// alone) when a `removed` block names it or its module, unless that block says
// `lifecycle { destroy = true }`. A `removed` block must not name something still configured.
//
// Without a `removed` block, `lifecycle { destroy = false }` forgets too: the resource block's
// setting, or (once the block is gone, or for objects its instances no longer cover) the
// `skip_destroy` each object recorded in state when it was last planned with that setting.
import { ConfigResource, Module as ModuleAddr, Resource as ResourceAddr, targetContains, type AbsResourceInstance } from "../addrs/index.js";
import { allConfigs, descendent, type Config } from "../configs/index.js";
import { errorDiag, type Diagnostic, type Range } from "../hcl/index.js";
import type { Action, ActionReason, ResourceInstanceChange } from "../plans/index.js";
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

/** What decides whether an object that is going away is destroyed or forgotten. */
export interface OrphanObject {
  /** The object's `skip_destroy` in state. */
  readonly skipDestroy: boolean;
  /** The resource block's `lifecycle { destroy }` when the block is still configured. */
  readonly configDestroy: boolean | undefined;
  /**
   * A current object of a configured resource in a destroy plan: the block's setting alone
   * decides (OpenTofu's refresh before a destroy records it in state for every configured
   * instance).
   */
  readonly configDecides: boolean;
}

export interface OrphanPlan {
  readonly action: Extract<Action, "Delete" | "Forget">;
  /** Why a lifecycle setting forgets it (a `removed` block leaves the caller's reason). */
  readonly reason: ActionReason | undefined;
  readonly diagnostics: Diagnostic[];
}

/**
 * What to plan for an object going away. Outside destroy plans a `removed` block naming it
 * decides (the last matching block: Forget unless it asks to destroy). Otherwise `destroy =
 * false` forgets: the block's setting first, else the object's `skip_destroy`.
 */
export function orphanAction(run: RunState, addr: AbsResourceInstance, deposedKey: string, obj: OrphanObject): OrphanPlan {
  let removed: boolean | undefined;
  if (!run.opts.destroy) for (const rs of removeStatements(run.config)) if (targetContains(rs.from, addr)) removed = !rs.destroy;
  if (removed === undefined) return lifecycleOrphanAction(obj);
  if (!removed) return { action: "Delete", reason: undefined, diagnostics: [] };
  const detail =
    deposedKey === NotDeposed
      ? `After this plan gets applied, the resource ${addr.toString()} will not be managed anymore by OpenTofu.\n\nIn case you want to manage the resource again, you will have to import it.`
      : `After this plan is applied, the resource ${addr.toString()} will not be managed anymore by OpenTofu.\n\nIn case you want to manage the resource again, you will have to import it.`;
  const summary = deposedKey === NotDeposed ? "Resource going to be removed from the state" : "Resource will be removed from the state";
  return { action: "Forget", reason: undefined, diagnostics: [{ severity: "warning", summary, detail }] };
}

function lifecycleOrphanAction(obj: OrphanObject): OrphanPlan {
  if (obj.configDestroy === false) return { action: "Forget", reason: "ForgotBecauseLifecycleDestroyInConfig", diagnostics: [] };
  if (obj.skipDestroy && !obj.configDecides) return { action: "Forget", reason: "ForgotBecauseLifecycleDestroyInState", diagnostics: [] };
  return { action: "Delete", reason: undefined, diagnostics: [] };
}

/** Apply of a Forget change: the object leaves state; the provider is not called. */
export function forgetInstance(run: RunState, n: Extract<GraphNode, { kind: "forgetInstance" }>): Diagnostic[] {
  const ch = n.change;
  if (ch.deposedKey !== NotDeposed) run.state.forgetResourceInstanceDeposed(ch.addr, ch.deposedKey);
  else run.state.setResourceInstanceCurrent(ch.addr, undefined, ch.providerAddr, ch.providerKey);
  run.state.removeResourceIfEmpty(ch.addr.containingResource());
  return [];
}

/**
 * A destroy that otherwise succeeded but forgot objects (`destroy = false`, `removed` blocks)
 * instead of destroying them did not do all it was asked, and automation may take its success
 * to mean that everything is gone: OpenTofu ends it with an error (the objects are out of state
 * all the same), unless `-suppress-forget-errors` is given.
 */
export function forgottenByDestroyDiagnostics(changes: readonly ResourceInstanceChange[]): Diagnostic[] {
  if (!changes.some((c) => c.change.action === "Forget")) return [];
  return [
    errorDiag(
      "Destroy was successful but left behind forgotten instances",
      `As requested, OpenTofu has not deleted some remote objects that are no longer managed by this configuration. Those objects continue to exist in their remote system and so may continue to incur charges. Refer to the original plan for more information.\nTo suppress this error for the future 'destroy' runs, you can add the CLI flag "-suppress-forget-errors".`,
    ),
  ];
}
