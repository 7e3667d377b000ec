// create_before_destroy forced onto dependencies (OpenTofu's ForcedCBDTransformer): when a
// resource is create_before_destroy, everything it depends on that gets replaced must be too,
// or the apply graph would need the old dependency destroyed before the dependent's new object
// exists — a cycle. The converse does not hold: dependents of a CBD resource keep their mode.
import { resourceAddrString } from "../configs/index.js";
import type { GraphNode } from "./nodes.js";
import { cbdKey } from "./run.js";
import type { Graph } from "./transform.js";

type ResourceLike = Extract<GraphNode, { kind: "resource" | "applyInstance" }>;

/** Whether the node is create_before_destroy by itself (configuration, or a planned CreateThenDelete). */
function ownCBD(n: ResourceLike): boolean {
  if (n.config.mode !== "managed") return false;
  if (n.config.managed?.createBeforeDestroy) return true;
  return n.kind === "applyInstance" && n.change.change.action === "CreateThenDelete";
}

/** The resources (as RunState.forcedCBD keys) that something depending on them forces into create_before_destroy. */
export function forcedCreateBeforeDestroy(g: Graph): string[] {
  const out = new Set<string>();
  for (const v of g.vertices()) {
    if ((v.kind !== "resource" && v.kind !== "applyInstance") || v.config.mode !== "managed" || ownCBD(v)) continue;
    const dependentIsCBD = g.descendants(v).some((d) => (d.kind === "resource" || d.kind === "applyInstance") && ownCBD(d));
    if (dependentIsCBD) out.add(cbdKey(v.module, resourceAddrString(v.config)));
  }
  return [...out];
}
