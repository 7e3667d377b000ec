// Compressed adjacency ("CSR") snapshots of a graph for the algorithms: vertices numbered 0..n-1
// and every vertex's neighbours as one slice of a typed array. Algorithms then run on integers
// with typed-array state, with no per-edge objects, closures or Map look-ups.
import { graphInternals, type Graph, type VertexNode } from "./graph.js";

/** The graph's records in insertion order, each numbered with its position (`node.index`). */
export function numberNodes<V>(g: Graph<V>): VertexNode<V>[] {
  const map = graphInternals.nodes(g);
  const nodes = new Array<VertexNode<V>>(map.size);
  let i = 0;
  for (const node of map.values()) {
    node.index = i;
    nodes[i++] = node;
  }
  return nodes;
}

/** Neighbour lists: vertex i's neighbours are `to[off[i]] … to[off[i + 1] - 1]`. */
export interface Adjacency {
  readonly off: Int32Array;
  readonly to: Int32Array;
}

/**
 * The down (edge targets) or up (edge sources) lists of numbered nodes, in each set's order.
 * The nodes must have just been numbered by numberNodes.
 */
export function adjacency<V>(nodes: readonly VertexNode<V>[], direction: "down" | "up"): Adjacency {
  const n = nodes.length;
  const off = new Int32Array(n + 1);
  let m = 0;
  for (let i = 0; i < n; i++) {
    off[i] = m;
    const node = nodes[i] as VertexNode<V>;
    m += direction === "down" ? node.down.size : node.up.size;
  }
  off[n] = m;
  const to = new Int32Array(m);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const node = nodes[i] as VertexNode<V>;
    for (const other of direction === "down" ? node.down : node.up) to[k++] = other.index;
  }
  return { off, to };
}
