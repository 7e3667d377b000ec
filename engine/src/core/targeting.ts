// Resource targeting (OpenTofu's TargetingTransformer, the targets half of
// nodeExpandPlannableResource and Context.prePlanVerifyTargetedMoves): `-target` keeps the named
// resources, their instances and modules plus everything they depend on; `-exclude` drops the
// named objects and everything that depends on them. Root outputs that depend only on kept
// resources stay too. Resource nodes are pruned when the graph is built; their instances are
// filtered when a resource node expands.
import {
  ConfigResource,
  Module as ModuleAddr,
  Resource as ResourceAddr,
  targetContains,
  type AbsResourceInstance,
  type Targetable,
} from "../addrs/index.js";
import type { Diagnostic } from "../hcl/index.js";
import type { AcyclicGraph, WalkContext } from "../graph/index.js";
import type { State } from "../states/index.js";
import type { GraphNode } from "./nodes.js";

type Graph = AcyclicGraph<GraphNode>;

export interface Targeting {
  readonly targets: readonly Targetable[];
  readonly excludes: readonly Targetable[];
}

export function targetingActive(t: Targeting | undefined): t is Targeting {
  return !!t && (t.targets.length > 0 || t.excludes.length > 0);
}

/** OpenTofu's warning for every plan made with -target or -exclude. */
export function targetingWarning(t: Targeting | undefined): Diagnostic[] {
  if (!targetingActive(t)) return [];
  return [
    {
      severity: "warning",
      summary: "Resource targeting is in effect",
      detail:
        "You are creating a plan with either the -target option or the -exclude option, which means that the result of this plan may not represent all of the changes requested by the current configuration.\n\nThe -target and -exclude options are not for routine use, and are provided only for exceptional situations such as recovering from errors or mistakes, or when OpenTofu specifically suggests to use it as part of an error message.",
    },
  ];
}

/** OpenTofu's warning after applying a plan made with -target or -exclude. */
export function appliedTargetingWarning(t: Targeting | undefined): Diagnostic[] {
  if (!targetingActive(t)) return [];
  return [
    {
      severity: "warning",
      summary: "Applied changes may be incomplete",
      detail:
        "The plan was created with the -target or the -exclude option in effect, so some changes requested in the configuration may have been ignored and the output values may not be fully updated. Run the following command to verify that no other changes are pending:\n    tofu plan\n\t\nNote that the -target and -exclude options are not suitable for routine use, and are provided only for exceptional situations such as recovering from errors or mistakes, or when OpenTofu specifically suggests to use it as part of an error message.",
    },
  ];
}

/**
 * The address a node can be targeted by: a resource block before expansion (ConfigResource),
 * an instance after. Orphaned resources stand for every instance they have in state.
 */
function nodeAddrs(n: GraphNode, state: State | undefined): { config?: ConfigResource; instances?: AbsResourceInstance[] } | undefined {
  switch (n.kind) {
    case "resource":
      return { config: new ConfigResource(new ModuleAddr(n.module), new ResourceAddr(n.config.mode, n.config.type, n.config.name)) };
    case "orphanResource":
      return { instances: [...(state?.resource(n.addr)?.instances.values() ?? [])].map((is) => n.addr.instance(is.key)) };
    case "planInstance":
    case "planOrphan":
      return { instances: [n.addr] };
    case "applyInstance":
    case "destroyInstance":
    case "forgetInstance":
      return { instances: [n.change.addr] };
    default:
      return undefined;
  }
}

/** A target made as general as a resource block, to compare with one (nodeIsTarget). */
function generalized(t: Targetable): Targetable {
  switch (t.kind) {
    case "AbsResourceInstance":
      return t.containingResource().config();
    case "AbsResource":
      return t.config();
    case "ModuleInstance":
      return t.module();
    default:
      return t;
  }
}

function addrMatches(list: readonly Targetable[], a: { config?: ConfigResource; instances?: AbsResourceInstance[] }, generalize: boolean): boolean {
  if (a.config) {
    const c = a.config;
    return list.some((t) => targetContains(generalize ? generalized(t) : t, c));
  }
  return (a.instances ?? []).some((i) => list.some((t) => targetContains(t, i)));
}

/** Whether every instance the node stands for is excluded (an orphan resource with no instance left is not). */
function allExcluded(excludes: readonly Targetable[], a: { config?: ConfigResource; instances?: AbsResourceInstance[] }): boolean {
  if (a.config) return excludes.some((t) => targetContains(t, a.config as ConfigResource));
  const insts = a.instances ?? [];
  return insts.length > 0 && insts.every((i) => excludes.some((t) => targetContains(t, i)));
}

function isRootOutput(n: GraphNode): boolean {
  return n.kind === "output" && n.module.length === 0;
}

function isTargetable(n: GraphNode): boolean {
  return nodeAddrs(n, undefined) !== undefined;
}

/**
 * Root outputs whose resource dependencies are all kept (and that have at least one) stay, with
 * everything they need (getTargetedOutputNodes).
 */
function keepOutputs(g: Graph, kept: Set<GraphNode>): void {
  for (const v of g.vertices()) {
    if (!isRootOutput(v)) continue;
    const deps = g.ancestors(v);
    const resources = deps.filter(isTargetable);
    if (resources.length === 0 || !resources.every((d) => kept.has(d))) continue;
    kept.add(v);
    for (const d of deps) kept.add(d);
  }
}

/** The nodes -target keeps: targeted nodes and their dependencies (selectTargetedNodes). */
function selectTargeted(g: Graph, b: { state: State; destroy?: boolean }, targets: readonly Targetable[]): Set<GraphNode> {
  const kept = new Set<GraphNode>();
  const keep = (v: GraphNode) => {
    kept.add(v);
    for (const d of g.ancestors(v)) kept.add(d);
  };
  for (const v of g.vertices()) {
    const a = nodeAddrs(v, b.state);
    if (a && addrMatches(targets, a, true)) keep(v);
  }
  if (b.destroy) for (const v of destroyDependents(g, b.state, kept)) keep(v);
  keepOutputs(g, kept);
  return kept;
}

/**
 * A destroy plan: the resources in state that depend (by their recorded dependencies, through
 * any chain) on a kept one. OpenTofu's destroy plan graph orders dependents' destroy nodes before
 * their dependencies', so they are the targets' ancestors and are destroyed with them.
 */
function destroyDependents(g: Graph, state: State, kept: ReadonlySet<GraphNode>): GraphNode[] {
  const orphans = g.vertices().filter((v): v is Extract<GraphNode, { kind: "orphanResource" }> => v.kind === "orphanResource");
  const dependsOn = (n: Extract<GraphNode, { kind: "orphanResource" }>): ConfigResource[] => {
    const out: ConfigResource[] = [];
    for (const is of state.resource(n.addr)?.instances.values() ?? []) {
      for (const o of [is.current, ...is.deposed.values()]) if (o) out.push(...o.dependencies);
    }
    return out;
  };
  const destroyed = new Set<string>();
  for (const v of kept) if (v.kind === "orphanResource") destroyed.add(v.addr.config().toString());
  const added: GraphNode[] = [];
  let grew = true;
  while (grew) {
    grew = false;
    for (const n of orphans) {
      if (destroyed.has(n.addr.config().toString())) continue;
      if (!dependsOn(n).some((d) => destroyed.has(d.toString()))) continue;
      destroyed.add(n.addr.config().toString());
      added.push(n);
      grew = true;
    }
  }
  return added;
}

/** The nodes -exclude keeps: the rest, minus dependents of excluded ones (removeExcludedNodes). */
function removeExcluded(g: Graph, b: { state: State }, excludes: readonly Targetable[]): Set<GraphNode> {
  const excluded = new Set<GraphNode>();
  const targetable: GraphNode[] = [];
  for (const v of g.vertices()) {
    const a = nodeAddrs(v, b.state);
    if (!a) continue;
    targetable.push(v);
    const self = allExcluded(excludes, a);
    if (self) excluded.add(v);
    // A resource block is a source of exclusion when any of its instances is excluded: its
    // dependents (which may use any instance) go too, as OpenTofu over-excludes for -target.
    if (self || addrMatches(excludes, a, true)) {
      for (const d of g.descendants(v)) {
        const da = nodeAddrs(d, b.state);
        if (!da) continue;
        // Instances of the same resource are not dependents of one another.
        if (a.config && da.instances?.every((i) => a.config && i.configResource().equal(a.config))) continue;
        excluded.add(d);
      }
    }
  }
  const kept = new Set<GraphNode>();
  for (const v of targetable) {
    if (excluded.has(v)) continue;
    kept.add(v);
    for (const d of g.ancestors(v)) kept.add(d);
  }
  keepOutputs(g, kept);
  return kept;
}

/** Removes every node the targeting options leave out (TargetingTransformer). */
export function pruneForTargeting(g: Graph, b: { state: State; destroy?: boolean }, t: Targeting | undefined): void {
  if (!targetingActive(t)) return;
  const kept = t.targets.length > 0 ? selectTargeted(g, b, t.targets) : removeExcluded(g, b, t.excludes);
  for (const v of g.vertices()) if (!kept.has(v)) g.remove(v);
}

/**
 * Whether a node expanding into instances must filter them: with -target only nodes that were
 * targeted themselves (not kept as a dependency) plan a subset; with -exclude every node drops its
 * excluded instances.
 */
function filtersInstances(n: GraphNode, t: Targeting): boolean {
  if (t.targets.length === 0) return true;
  // An orphan kept only as a destroy dependent of a target is destroyed whole.
  if (n.kind === "orphanResource") return t.targets.some((x) => targetContains(generalized(x), n.addr.config()));
  const a = nodeAddrs(n, undefined);
  return !!a && addrMatches(t.targets, a, true);
}

function instanceKept(addr: AbsResourceInstance, t: Targeting): boolean {
  if (t.targets.length > 0) return t.targets.some((x) => targetContains(x, addr));
  return !t.excludes.some((x) => targetContains(x, addr));
}

/**
 * The walk context a resource node expands through: its subgraph loses the instances the
 * targeting options leave out (the TargetsTransformer of resourceInstanceSubgraph).
 */
export function targetedWalkContext(n: GraphNode, wctx: WalkContext<GraphNode>, t: Targeting | undefined): WalkContext<GraphNode> {
  if (!targetingActive(t) || !filtersInstances(n, t)) return wctx;
  return {
    signal: wctx.signal,
    parent: wctx.parent,
    expand(sub) {
      for (const v of sub.vertices()) {
        const a = nodeAddrs(v, undefined);
        const insts = a?.instances ?? [];
        if (insts.length > 0 && !insts.every((i) => instanceKept(i, t))) sub.remove(v);
      }
      if (sub.size > 0) wctx.expand(sub);
    },
  };
}

/** The parts of a move result the check needs (refactoring's MoveSuccess). */
export interface MovedInstance {
  readonly from: AbsResourceInstance;
  readonly to: AbsResourceInstance;
}

/**
 * Errors when -target or -exclude would split a move: both ends of every move must be planned
 * together (prePlanVerifyTargetedMoves). Addresses are listed per resource, without keys.
 */
export function verifyTargetedMoves(moves: Iterable<MovedInstance>, t: Targeting | undefined): Diagnostic[] {
  if (!targetingActive(t)) return [];
  const useTargets = t.targets.length > 0;
  const list = useTargets ? t.targets : t.excludes;
  const flagged: AbsResourceInstance[] = [];
  for (const m of moves) {
    for (const addr of [m.from, m.to]) {
      const matched = list.some((x) => targetContains(x, addr));
      if (useTargets ? !matched : matched) flagged.push(addr);
    }
  }
  if (flagged.length === 0) return [];
  flagged.sort((a, b) => a.compare(b));
  const lines: string[] = [];
  let prev = "";
  for (const a of flagged) {
    const r = a.containingResource().toString();
    if (r === prev) continue;
    prev = r;
    lines.push(`\n  -${useTargets ? "target" : "exclude"}=${JSON.stringify(r)}`);
  }
  const detail = useTargets
    ? `Resource instances in your current state have moved to new addresses in the latest configuration. OpenTofu must include those resource instances while planning in order to ensure a correct result, but your -target=... options do not fully cover all of those resource instances.\n\nTo create a valid plan, either remove your -target=... options altogether or add the following additional target options:${lines.join("")}\n\nNote that adding these options may include further additional resource instances in your plan, in order to respect object dependencies.`
    : `Resource instances in your current state have moved to new addresses in the latest configuration. OpenTofu must include those resource instances while planning in order to ensure a correct result, but your -exclude=... options exclude some of those resource instances.\n\nTo create a valid plan, either remove your -exclude=... options altogether or just specifically remove the following options:${lines.join("")}\n\nNote that removing these options may include further additional resource instances in your plan, in order to respect object dependencies.`;
  return [{ severity: "error", summary: "Moved resource instances excluded by targeting", detail }];
}
