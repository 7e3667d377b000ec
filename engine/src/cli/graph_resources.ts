// The default of `terrace graph`: only the resource and data blocks of the configuration and the
// order between them, as `terraform graph` (1.7+) draws it without -type. Each block depends on
// the nearest blocks its plan-graph vertex reaches through anything else (locals, variables,
// outputs, module calls), with implied edges removed (transitive reduction); blocks of a module
// are drawn in a cluster named after it. Providers are left out: they are not ordering between
// the objects a user declared.
import { resourceAddrString } from "../configs/index.js";
import type { GraphNode } from "../core/index.js";
import { goQuote, type Graph } from "../graph/index.js";

export interface ResourceGraph {
  /** Block addresses (`module.m.aws_instance.a`), sorted: root blocks first, then by module. */
  readonly nodes: ReadonlyArray<{ readonly address: string; readonly module: string; readonly local: string }>;
  /** `from` depends on `to`. */
  readonly edges: ReadonlyArray<{ readonly from: string; readonly to: string }>;
}

function moduleString(module: readonly string[]): string {
  return module.map((m) => `module.${m}`).join(".");
}

/** The resource blocks of a plan graph and the dependencies between them. */
export function resourceGraph(g: Graph<GraphNode>): ResourceGraph {
  const blocks = g.vertices().filter((v): v is Extract<GraphNode, { kind: "resource" }> => v.kind === "resource");
  const addressOf = new Map<GraphNode, string>();
  const nodes = blocks.map((b) => {
    const mod = moduleString(b.module);
    const local = resourceAddrString(b.config);
    const address = mod === "" ? local : `${mod}.${local}`;
    addressOf.set(b, address);
    return { address, module: mod, local };
  });
  nodes.sort((a, c) => (a.module === c.module ? cmp(a.local, c.local) : a.module === "" ? -1 : c.module === "" ? 1 : cmp(a.module, c.module)));

  // The nearest blocks each block reaches without passing through another block.
  const direct = new Map<string, Set<string>>();
  for (const b of blocks) {
    const found = new Set<string>();
    const seen = new Set<GraphNode>([b]);
    const stack = [...g.downEdges(b)];
    while (stack.length > 0) {
      const v = stack.pop() as GraphNode;
      if (seen.has(v)) continue;
      seen.add(v);
      const a = addressOf.get(v);
      if (a !== undefined) found.add(a);
      else stack.push(...g.downEdges(v));
    }
    direct.set(addressOf.get(b) as string, found);
  }
  // Transitive reduction: drop a → c when another dependency of a reaches c.
  const reach = new Map<string, Set<string>>();
  const reachable = (a: string): Set<string> => {
    const known = reach.get(a);
    if (known) return known;
    const out = new Set<string>();
    reach.set(a, out);
    for (const d of direct.get(a) ?? []) {
      out.add(d);
      for (const x of reachable(d)) out.add(x);
    }
    return out;
  };
  const edges: Array<{ from: string; to: string }> = [];
  for (const n of nodes) {
    const deps = [...(direct.get(n.address) ?? [])].filter((d) => d !== n.address);
    const kept = deps.filter((d) => !deps.some((o) => o !== d && reachable(o).has(d)));
    for (const to of kept.sort(cmp)) edges.push({ from: n.address, to });
  }
  return { nodes, edges };
}

/** The graph in the DOT form `terraform graph` prints by default. */
export function resourceGraphDot(rg: ResourceGraph): string {
  const out = ["digraph G {", '  rankdir = "RL";', '  node [shape = rect, fontname = "sans-serif"];'];
  const modules: string[] = [];
  for (const n of rg.nodes) {
    if (n.module === "") out.push(`  ${goQuote(n.address)} [label=${goQuote(n.local)}];`);
    else if (!modules.includes(n.module)) modules.push(n.module);
  }
  for (const m of modules) {
    out.push(`  subgraph ${goQuote(`cluster_${m}`)} {`, `    label = ${goQuote(m)}`, '    fontname = "sans-serif"');
    for (const n of rg.nodes) if (n.module === m) out.push(`    ${goQuote(n.address)} [label=${goQuote(n.local)}];`);
    out.push("  }");
  }
  for (const e of rg.edges) out.push(`  ${goQuote(e.from)} -> ${goQuote(e.to)};`);
  out.push("}");
  return `${out.join("\n")}\n`;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
