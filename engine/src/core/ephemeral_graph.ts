// Ephemeral resources in the graphs of a destroy (OpenTofu's PlanGraphBuilder, whose
// ConfigTransformer keeps only ephemeral resources in a destroy plan, and its
// pruneUnusedNodesTransformer). A destroy builds no nodes from `resource` and `data` blocks, but
// the provider configurations it needs may be set from ephemeral resources: those are opened
// again, in the destroy plan and in the apply of a destroy plan, so that a provider configured
// from one gets the real value. Only the ephemeral resources that what the destroy does depends
// on (directly, or through locals, variables, providers and other ephemeral resources) are
// opened; terraform 1.11 opens no others in its destroy walk either. The variables, local values
// and module outputs nothing needs are pruned with them.
import { allConfigs } from "../configs/index.js";
import type { GraphNode } from "./nodes.js";
import type { Graph, Transformer } from "./transform.js";

/** One node per `ephemeral` block of every module (ConfigTransformer's ModeFilter in a destroy). */
export const destroyEphemeralResourceTransformer: Transformer = (g, b) => {
  for (const c of allConfigs(b.config)) for (const r of c.module.ephemeralResources.values()) g.add({ kind: "resource", module: c.path, config: r });
  return [];
};

/** Nodes that only provide values: kept only when something the destroy does depends on them. */
function onlyProvidesValues(n: GraphNode): boolean {
  switch (n.kind) {
    case "variable":
    case "variableValidation":
    case "local":
    case "output":
    case "moduleCall":
    case "provider":
      return true;
    case "resource":
      return n.config.mode === "ephemeral";
    default:
      return false;
  }
}

/**
 * Removes the ephemeral resources, variables, local values and module outputs nothing of the
 * destroy needs, and the provider configurations that only unused ephemeral resources used (run
 * after the reference and provider edges are in place, before close nodes), as OpenTofu's
 * pruneUnusedNodesTransformer does: so a variable whose value fails its validation rule fails a
 * destroy only when the destroy needs it. Other nodes stay as they were.
 */
export const pruneUnusedForDestroyTransformer: Transformer = (g) => {
  const needed = neededNodes(g);
  // Module calls stay (they expand the module instances), and so do the values they are made of.
  const expansion = new Set<GraphNode>();
  for (const n of g.vertices()) if (n.kind === "moduleCall") for (const a of g.ancestors(n)) expansion.add(a);
  const unusedValue = (n: GraphNode) => (n.kind === "variable" || n.kind === "variableValidation" || n.kind === "local" || n.kind === "output") && !expansion.has(n);
  const unusedEphemeral = (n: GraphNode) => n.kind === "resource" && n.config.mode === "ephemeral";
  const unused = new Set(g.vertices().filter((n) => (unusedValue(n) || unusedEphemeral(n)) && !needed.has(n)));
  const providers = g.vertices().filter((n) => {
    if (n.kind !== "provider" || needed.has(n)) return false;
    const users = g.upEdges(n);
    return users.length > 0 && users.every((u) => unused.has(u));
  });
  for (const n of [...unused, ...providers]) g.remove(n);
  return [];
};

/** Everything the nodes that act (destroy, forget, plan an orphan) depend on, themselves included. */
function neededNodes(g: Graph): Set<GraphNode> {
  const needed = new Set<GraphNode>();
  for (const n of g.vertices()) {
    if (onlyProvidesValues(n)) continue;
    needed.add(n);
    for (const a of g.ancestors(n)) needed.add(a);
  }
  return needed;
}
