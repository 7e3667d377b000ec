// The order among the instances of one resource when a plan expands it (OpenTofu's
// DynamicExpand runs its ReferenceTransformer over the instance nodes): an instance whose
// configuration refers to another instance of the same resource waits for it, and is skipped if
// that one fails; instances referring to each other are a cycle ("Cycle: x[1], x[0]"). Every
// instance has the same references, so any such configuration also refers to itself, which the
// plan of that instance reports ("Self-referential block"); what this decides is which errors
// the user sees, as tofu shows them, instead of a partial plan.
import { instanceKeyString, parseRef, Resource as ResourceAddr, ResourceInstance } from "../addrs/index.js";
import type { Resource } from "../configs/index.js";
import type { Diagnostic } from "../hcl/index.js";
import { cycleDiagnostics } from "./builder.js";
import type { GraphNode } from "./nodes.js";
import type { ProviderManager } from "./providers.js";
import { resourceReferences, type Graph } from "./transform.js";

type PlanInstanceNode = Extract<GraphNode, { kind: "planInstance" }>;

/** The keys (as `[0]`, `["a"]`, or "*" for every instance) of `res` that `rc` refers to. */
function ownInstanceRefs(rc: Resource, res: ResourceAddr, providers: ProviderManager): Set<string> {
  const out = new Set<string>();
  for (const t of resourceReferences(rc, { providers })) {
    const r = parseRef(t);
    if (!r.result) continue;
    const s = r.result.subject;
    if (s instanceof ResourceInstance) {
      if (s.resource.equal(res)) out.add(instanceKeyString(s.key));
    } else if (s instanceof ResourceAddr && s.equal(res)) out.add("*");
  }
  return out;
}

/**
 * Connects the subgraph's instances of `rc` by their references to each other; the cycles it
 * then has, as diagnostics (nothing to expand when there are any).
 */
export function orderOwnInstances(sub: Graph, rc: Resource, providers: ProviderManager): Diagnostic[] {
  const instances = sub.vertices().filter((v): v is PlanInstanceNode => v.kind === "planInstance" && v.config === rc);
  if (instances.length < 2) return [];
  const res = instances[0]?.addr.resource.resource;
  if (!res) return [];
  const keys = ownInstanceRefs(rc, res, providers);
  if (keys.size === 0) return [];
  // Instances only wait for instances in the same module instance: references are module-relative.
  const byModule = new Map<string, Map<string, PlanInstanceNode>>();
  for (const n of instances) {
    const m = n.addr.module.toString();
    let inModule = byModule.get(m);
    if (!inModule) byModule.set(m, (inModule = new Map()));
    inModule.set(instanceKeyString(n.addr.resource.key), n);
  }
  for (const inModule of byModule.values()) {
    for (const n of inModule.values()) {
      const targets = keys.has("*") ? [...inModule.values()] : [...keys].flatMap((k) => inModule.get(k) ?? []);
      for (const t of targets) if (t !== n) sub.connect(n, t);
    }
  }
  return cycleDiagnostics(sub);
}
