// Attribute plan modifiers, with terraform-plugin-framework's semantics: they run during
// PlanResourceChange after defaults and after computed attributes that the configuration leaves
// null were marked unknown, each one seeing the attribute's config, prior state and current plan.

import { rawEquals, type Path, type Value } from "../values/index.js";
import type { Diagnostic } from "./diagnostics.js";

export interface AttributePlanRequest {
  readonly path: Path;
  /** The attribute's value in configuration. */
  readonly config: Value;
  /** The attribute's value in prior state (null when creating). */
  readonly state: Value;
  /** The attribute's planned value so far. */
  readonly plan: Value;
  /** True when there is no prior state. */
  readonly isCreate: boolean;
  /** The whole resource: configuration, prior state and the plan as it was before this walk. */
  readonly resourceConfig: Value;
  readonly resourceState: Value;
  readonly resourcePlan: Value;
}

export interface AttributePlanResponse {
  readonly plan?: Value;
  readonly requiresReplace?: boolean;
  readonly diagnostics?: readonly Diagnostic[];
}

export type PlanModifier = (req: AttributePlanRequest) => AttributePlanResponse | undefined | void;

/** Changing the attribute replaces the resource (not on create; not when plan equals state). */
export function requiresReplace(): PlanModifier {
  return requiresReplaceIf(() => true);
}

/** Like requiresReplace, but only when `cond` agrees. */
export function requiresReplaceIf(cond: (req: AttributePlanRequest) => boolean): PlanModifier {
  return (req) => {
    if (req.isCreate) return undefined;
    if (rawEquals(req.plan, req.state)) return undefined;
    return cond(req) ? { requiresReplace: true } : undefined;
  };
}

/** Keeps the prior value instead of "known after apply" for a computed attribute on update. */
export function useStateForUnknown(): PlanModifier {
  return (req) => {
    if (req.state.kind === "null") return undefined;
    if (req.plan.kind !== "unknown") return undefined;
    if (req.config.kind === "unknown") return undefined;
    return { plan: req.state };
  };
}
