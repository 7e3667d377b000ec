// Tarjan's strongly connected components (OpenTofu's dag.StronglyConnected), iterative so that a
// long chain of vertices cannot overflow the call stack, and with an on-stack flag per vertex
// instead of OpenTofu's linear stack search.
import type { Graph } from "./graph.js";
import { adjacency, numberNodes } from "./csr.js";

/**
 * The strongly connected components of `g`, every vertex in exactly one. Components come out in
 * the order Tarjan's algorithm completes them, which is a reverse topological order of the
 * component graph (a component comes before the components that have edges into it); within a
 * component, vertices are in the order they were popped. Deterministic for a given insertion order.
 */
export function stronglyConnected<V>(g: Graph<V>): V[][] {
  return stronglyConnectedIndices(g).map((scc) => scc.vertices);
}

/** Components with their vertices' insertion positions (for callers that need both). */
export function stronglyConnectedIndices<V>(g: Graph<V>): { vertices: V[]; indices: number[] }[] {
  const nodes = numberNodes(g);
  const n = nodes.length;
  const { off, to } = adjacency(nodes, "down");
  const order = new Int32Array(n); // visit order, 1-based; 0 = not visited
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack = new Int32Array(n);
  const callVertex = new Int32Array(n);
  const callEdge = new Int32Array(n);
  const out: { vertices: V[]; indices: number[] }[] = [];
  let sp = 0;
  let next = 1;
  for (let r = 0; r < n; r++) {
    if (order[r] !== 0) continue;
    let csp = 0;
    order[r] = low[r] = next++;
    stack[sp++] = r;
    onStack[r] = 1;
    callVertex[csp] = r;
    callEdge[csp++] = off[r] as number;
    while (csp > 0) {
      const v = callVertex[csp - 1] as number;
      const e = callEdge[csp - 1] as number;
      if (e < (off[v + 1] as number)) {
        callEdge[csp - 1] = e + 1;
        const w = to[e] as number;
        if (order[w] === 0) {
          order[w] = low[w] = next++;
          stack[sp++] = w;
          onStack[w] = 1;
          callVertex[csp] = w;
          callEdge[csp++] = off[w] as number;
        } else if (onStack[w] && (order[w] as number) < (low[v] as number)) {
          low[v] = order[w] as number;
        }
        continue;
      }
      csp--;
      if (low[v] === order[v]) {
        const vertices: V[] = [];
        const indices: number[] = [];
        let w: number;
        do {
          w = stack[--sp] as number;
          onStack[w] = 0;
          vertices.push((nodes[w] as (typeof nodes)[number]).vertex);
          indices.push(w);
        } while (w !== v);
        out.push({ vertices, indices });
      }
      if (csp > 0) {
        const u = callVertex[csp - 1] as number;
        if ((low[v] as number) < (low[u] as number)) low[u] = low[v] as number;
      }
    }
  }
  return out;
}
