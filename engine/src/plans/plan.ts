// The plan (OpenTofu's plans.Plan): everything `apply` needs, and everything a reviewer sees.
import type { AbsResourceInstance, Targetable } from "../addrs/index.js";
import { State, type CheckResults } from "../states/model.js";
import type { Path, Value } from "../values/index.js";
import { changesEmpty, emptyChanges, type Changes, type ResourceInstanceChange } from "./changes.js";

/** Which kind of plan the user asked for (plans.Mode). */
export type UIMode = "normal" | "destroy" | "refresh-only";

/** An attribute of a resource instance that a planned change refers to (plans.ResourceAttr). */
export interface ResourceAttr {
  resource: AbsResourceInstance;
  attr: Path;
}

/** The backend the plan was made with, so apply writes state to the same place. */
export interface PlanBackend {
  type: string;
  /** The backend block's configuration, as an object value. */
  config: Value;
  workspace: string;
}

export interface Plan {
  uiMode: UIMode;
  /**
   * Root module variables as the caller set them (defaults are not recorded, as in OpenTofu).
   * Ephemeral ones are here only in memory: a saved plan leaves them out.
   */
  variableValues: Map<string, Value>;
  /** The root module's ephemeral variables, which applying a saved plan must be given again. */
  ephemeralVariables: string[];
  changes: Changes;
  /** Differences between the previous run state and the refreshed state ("changes outside"). */
  driftedResources: ResourceInstanceChange[];
  /** Attributes of drifted resources that the planned changes depend on. */
  relevantAttributes: ResourceAttr[];
  /** The refreshed state the plan was made against. */
  priorState: State;
  /** The state as the previous run left it, with moves applied. */
  prevRunState: State;
  /** Check results known at plan time. */
  checks: CheckResults | undefined;
  timestamp: Date;
  targetAddrs: Targetable[];
  excludeAddrs: Targetable[];
  forceReplaceAddrs: AbsResourceInstance[];
  backend: PlanBackend | undefined;
  /** Whether apply may go ahead (false for an errored plan or one with nothing to do). */
  applyable: boolean;
  /** Whether the plan covers everything (false with -target/-exclude or deferred actions). */
  complete: boolean;
  /** Planning failed part-way; the plan is kept only for inspection. */
  errored: boolean;
}

export function newPlan(init: Partial<Plan> = {}): Plan {
  return {
    uiMode: "normal",
    variableValues: new Map(),
    ephemeralVariables: [],
    changes: emptyChanges(),
    driftedResources: [],
    relevantAttributes: [],
    priorState: new State(),
    prevRunState: new State(),
    checks: undefined,
    timestamp: new Date(0),
    targetAddrs: [],
    excludeAddrs: [],
    forceReplaceAddrs: [],
    backend: undefined,
    applyable: false,
    complete: true,
    errored: false,
    ...init,
  };
}

/**
 * OpenTofu's Plan.CanApply: an errored plan never applies; otherwise a plan applies when it has
 * changes, or, in refresh-only mode only, when refreshing changed the state (a normal plan whose
 * only news is drift stays "no changes", as it always has).
 */
export function planCanApply(p: Plan, stateChanged: boolean): boolean {
  if (p.errored) return false;
  if (!changesEmpty(p.changes)) return true;
  return stateChanged && p.uiMode === "refresh-only";
}
