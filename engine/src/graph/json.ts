// The graph as JSON for the browser (the web app's d3 dependency graph): nodes sorted by name,
// edges sorted by their ends' names, and the cycles, each by node id. Plain data, ready for
// JSON.stringify; ids are unique within the document.
import { compareNames, type Graph } from "./graph.js";
import { stronglyConnected } from "./tarjan.js";

export interface GraphJSONNode {
  readonly id: string;
  readonly name: string;
  readonly attrs?: Readonly<Record<string, string>>;
}

/** An edge from `source` to `target`, by node id (source depends on target). */
export interface GraphJSONEdge {
  readonly source: string;
  readonly target: string;
}

export interface GraphJSON {
  readonly nodes: GraphJSONNode[];
  readonly edges: GraphJSONEdge[];
  /** Each cycle of two or more vertices, by node id (empty for an acyclic graph). */
  readonly cycles: string[][];
}

export interface GraphJSONOptions<V> {
  /**
   * A vertex's id. Default: its name, with "#2", "#3", … appended to the second and later vertices
   * sharing a name (in name order, then insertion order). Ids must be unique.
   */
  readonly id?: (vertex: V) => string;
  /** Extra attributes for a vertex's node (its kind, address, …). */
  readonly attrs?: (vertex: V) => Readonly<Record<string, string>> | undefined;
}

/** The JSON form of a graph (see the top of this file). */
export function toGraphJSON<V>(graph: Graph<V>, options: GraphJSONOptions<V> = {}): GraphJSON {
  const vertices = graph.vertices().map((vertex, order) => ({ vertex, order, name: graph.name(vertex) }));
  vertices.sort((a, b) => compareNames(a.name, b.name) || a.order - b.order);
  const ids = new Map<V, string>();
  const used = new Set<string>();
  const nodes: GraphJSONNode[] = [];
  for (const { vertex, name } of vertices) {
    let id: string;
    if (options.id) {
      id = options.id(vertex);
      if (used.has(id)) throw new Error(`graph JSON: duplicate node id ${JSON.stringify(id)}`);
    } else {
      id = name;
      for (let n = 2; used.has(id); n++) id = `${name}#${n}`;
    }
    used.add(id);
    ids.set(vertex, id);
    const attrs = options.attrs?.(vertex);
    nodes.push(attrs ? { id, name, attrs } : { id, name });
  }
  const names = new Map<V, string>();
  for (const { vertex, name } of vertices) names.set(vertex, name);
  const edges = graph.edges();
  edges.sort(
    (a, b) =>
      compareNames(names.get(a.source) as string, names.get(b.source) as string) ||
      compareNames(names.get(a.target) as string, names.get(b.target) as string) ||
      compareNames(ids.get(a.source) as string, ids.get(b.source) as string) ||
      compareNames(ids.get(a.target) as string, ids.get(b.target) as string),
  );
  return {
    nodes,
    edges: edges.map((e) => ({ source: ids.get(e.source) as string, target: ids.get(e.target) as string })),
    cycles: stronglyConnected(graph)
      .filter((c) => c.length > 1)
      .map((c) => c.map((v) => ids.get(v) as string)),
  };
}
