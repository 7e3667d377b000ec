// The acyclic graph (OpenTofu's dag.AcyclicGraph): a Graph that its builders keep free of cycles,
// with the algorithms that need that: validation (roots, cycles, self references), topological
// orders, depth/breadth-first walks, ancestors/descendants, and transitive reduction.
//
// Nothing stops a caller from adding a cycle; `validate` reports it. The algorithms that cannot
// work on a cycle (topological orders, transitive reduction, the parallel walk) throw a
// GraphCycleError: calling them on an unvalidated graph is a bug in the caller.
import { compareNames, Graph, graphInternals, type VertexNode } from "./graph.js";
import { adjacency, numberNodes } from "./csr.js";
import { stronglyConnected } from "./tarjan.js";
import { MinHeap } from "./heap.js";

/** One problem `validate` found, with OpenTofu's message text. */
export type GraphProblem<V> =
  | { readonly kind: "cycle"; readonly vertices: readonly V[]; readonly message: string }
  | { readonly kind: "self-reference"; readonly vertex: V; readonly message: string }
  | { readonly kind: "no-roots"; readonly message: string }
  | { readonly kind: "multiple-roots"; readonly roots: readonly V[]; readonly message: string };

/** The single root of a graph, or why there is none. */
export type RootResult<V> =
  | { readonly ok: true; readonly root: V }
  | { readonly ok: false; readonly problem: Extract<GraphProblem<V>, { kind: "no-roots" | "multiple-roots" }> };

/** Thrown by the algorithms that need an acyclic graph when they find a cycle. */
export class GraphCycleError extends Error {
  /** The vertices of each cycle (strongly connected component or self-referencing vertex). */
  readonly cycles: readonly (readonly unknown[])[];
  constructor(cycleNames: readonly string[][], cycles: readonly (readonly unknown[])[]) {
    super(cycleNames.map((names) => `Cycle: ${names.join(", ")}`).join("\n"));
    this.name = "GraphCycleError";
    this.cycles = cycles;
  }
}

/** Options for the depth- and breadth-first walks. */
export interface TraversalOptions {
  /**
   * Visit each set of neighbours in name order (OpenTofu's test mode for its walks), so the visit
   * order does not depend on insertion order.
   */
  readonly sorted?: boolean;
}

/** Called once per vertex reached by a traversal, with its distance from the start; `false` stops. */
export type TraversalFunc<V> = (vertex: V, depth: number) => boolean | void;

const DEPTH_FIRST = 1;
const BREADTH_FIRST = 2;

/** A directed graph kept free of cycles (OpenTofu's dag.AcyclicGraph). */
export class AcyclicGraph<V> extends Graph<V> {
  /** The one vertex nothing points to (OpenTofu's Root). */
  root(): RootResult<V> {
    const roots = this.roots();
    if (roots.length === 1) return { ok: true, root: roots[0] as V };
    if (roots.length === 0) return { ok: false, problem: { kind: "no-roots", message: "no roots found" } };
    const names = roots.map((r) => this.name(r)).sort(compareNames);
    return {
      ok: false,
      problem: { kind: "multiple-roots", roots, message: `multiple roots found: ${names.join(", ")}` },
    };
  }

  /**
   * Every problem that makes this graph unwalkable: each cycle of two or more vertices
   * ("Cycle: a, b, c", names sorted), each vertex with an edge to itself ("Self reference: a"),
   * and, when `singleRoot` is asked for (OpenTofu's Validate always asks), a graph without exactly
   * one root. Unlike OpenTofu, a root problem does not hide the cycle problems. Empty when valid.
   */
  validate(options: { readonly singleRoot?: boolean } = {}): GraphProblem<V>[] {
    const problems: GraphProblem<V>[] = [];
    if (options.singleRoot) {
      const root = this.root();
      if (!root.ok) problems.push(root.problem);
    }
    const cycles = this.cycles().map((cycle) => {
      const named = cycle.map((v) => ({ v, name: this.name(v) })).sort((a, b) => compareNames(a.name, b.name));
      return {
        kind: "cycle" as const,
        vertices: named.map((x) => x.v),
        message: `Cycle: ${named.map((x) => x.name).join(", ")}`,
      };
    });
    cycles.sort((a, b) => compareNames(a.message, b.message));
    problems.push(...cycles);
    for (const node of graphInternals.nodes(this).values()) {
      if (node.down.has(node)) {
        problems.push({ kind: "self-reference", vertex: node.vertex, message: `Self reference: ${this.name(node.vertex)}` });
      }
    }
    return problems;
  }

  /**
   * The cycles of two or more vertices: the strongly connected components with more than one
   * vertex, in Tarjan order (see stronglyConnected). Self references are not included.
   */
  cycles(): V[][] {
    return stronglyConnected(this).filter((scc) => scc.length > 1);
  }

  /**
   * Every vertex reachable from `vertex` along edges (what it depends on, directly or not): OpenTofu's
   * Ancestors. Breadth-first order; `vertex` itself only if it is on a cycle.
   */
  ancestors(vertex: V): V[] {
    return this.#reach(vertex, true);
  }

  /**
   * Every vertex from which `vertex` is reachable (what depends on it, directly or not):
   * OpenTofu's Descendents. Breadth-first order; `vertex` itself only if it is on a cycle.
   */
  descendants(vertex: V): V[] {
    return this.#reach(vertex, false);
  }

  #reach(vertex: V, down: boolean): V[] {
    const start = graphInternals.node(this, vertex);
    if (!start) return [];
    const seen = new Set<VertexNode<V>>();
    const queue: VertexNode<V>[] = [start];
    const out: V[] = [];
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head] as VertexNode<V>;
      for (const next of down ? node.down : node.up) {
        if (seen.has(next)) continue;
        seen.add(next);
        out.push(next.vertex);
        queue.push(next);
      }
    }
    return out;
  }

  /**
   * The vertices with every edge's source before its target (dependents before dependencies).
   * Among the vertices free to come next, the one with the smallest name comes first (then the
   * earliest inserted), so the order is the same however the graph was built.
   */
  topologicalOrder(): V[] {
    return this.#sortedOrder(true);
  }

  /**
   * The vertices with every edge's target before its source (dependencies first: the order a walk
   * may run them in one at a time). Ties broken by name as in topologicalOrder.
   */
  reverseTopologicalOrder(): V[] {
    return this.#sortedOrder(false);
  }

  // Kahn's algorithm with a name-ordered heap of the vertices whose predecessors are all placed.
  #sortedOrder(sourcesFirst: boolean): V[] {
    const nodes = numberNodes(this);
    const n = nodes.length;
    const next = adjacency(nodes, sourcesFirst ? "down" : "up");
    const names = nodes.map((node) => this.name(node.vertex));
    const waiting = new Int32Array(n);
    const heap = new MinHeap((a, b) => compareNames(names[a] as string, names[b] as string) || a - b);
    for (let i = 0; i < n; i++) {
      const node = nodes[i] as VertexNode<V>;
      waiting[i] = sourcesFirst ? node.up.size : node.down.size;
      if (waiting[i] === 0) heap.push(i);
    }
    const out: V[] = [];
    while (heap.size > 0) {
      const v = heap.pop();
      out.push((nodes[v] as VertexNode<V>).vertex);
      for (let e = next.off[v] as number, end = next.off[v + 1] as number; e < end; e++) {
        const w = next.to[e] as number;
        const left = (waiting[w] as number) - 1;
        waiting[w] = left;
        if (left === 0) heap.push(w);
      }
    }
    if (out.length < n) throw this.cycleError();
    return out;
  }

  /** A GraphCycleError naming every cycle and self reference (for the algorithms that throw). */
  cycleError(): GraphCycleError {
    const cycles: V[][] = [];
    const names: string[][] = [];
    for (const problem of this.validate()) {
      if (problem.kind === "cycle") {
        cycles.push([...problem.vertices]);
        names.push(problem.vertices.map((v) => this.name(v)));
      } else if (problem.kind === "self-reference") {
        cycles.push([problem.vertex]);
        names.push([this.name(problem.vertex)]);
      }
    }
    return new GraphCycleError(names, cycles);
  }

  /** Depth-first from `start` along edges (OpenTofu's DepthFirstWalk). */
  depthFirstWalk(start: Iterable<V>, f: TraversalFunc<V>, options: TraversalOptions = {}): void {
    this.#traverse(DEPTH_FIRST, true, start, f, options);
  }

  /** Depth-first from `start` against the edges: up to the vertices that depend on it. */
  reverseDepthFirstWalk(start: Iterable<V>, f: TraversalFunc<V>, options: TraversalOptions = {}): void {
    this.#traverse(DEPTH_FIRST, false, start, f, options);
  }

  /** Breadth-first from `start` along edges (OpenTofu's BreadthFirstWalk). */
  breadthFirstWalk(start: Iterable<V>, f: TraversalFunc<V>, options: TraversalOptions = {}): void {
    this.#traverse(BREADTH_FIRST, true, start, f, options);
  }

  /** Breadth-first from `start` against the edges. */
  reverseBreadthFirstWalk(start: Iterable<V>, f: TraversalFunc<V>, options: TraversalOptions = {}): void {
    this.#traverse(BREADTH_FIRST, false, start, f, options);
  }

  // OpenTofu's walk: a frontier used as a stack (depth-first) or a queue (breadth-first); each
  // vertex is visited the first time it is taken off the frontier. Start vertices not in the graph
  // are ignored.
  #traverse(kind: number, down: boolean, start: Iterable<V>, f: TraversalFunc<V>, options: TraversalOptions): void {
    const sorted = options.sorted === true;
    const frontier: VertexNode<V>[] = [];
    const depths: number[] = [];
    for (const v of start) {
      const node = graphInternals.node(this, v);
      if (node) frontier.push(node);
    }
    if (sorted) this.#sortNodes(frontier);
    for (let i = 0; i < frontier.length; i++) depths.push(0);
    const seen = new Set<VertexNode<V>>();
    let head = 0;
    while (head < frontier.length) {
      let node: VertexNode<V>;
      let depth: number;
      if (kind === DEPTH_FIRST) {
        node = frontier.pop() as VertexNode<V>;
        depth = depths.pop() as number;
      } else {
        node = frontier[head] as VertexNode<V>;
        depth = depths[head++] as number;
      }
      if (seen.has(node)) continue;
      seen.add(node);
      if (f(node.vertex, depth) === false) return;
      const nextNodes = down ? node.down : node.up;
      if (sorted) {
        const batch = [...nextNodes];
        this.#sortNodes(batch);
        for (const next of batch) {
          frontier.push(next);
          depths.push(depth + 1);
        }
      } else {
        for (const next of nextNodes) {
          frontier.push(next);
          depths.push(depth + 1);
        }
      }
    }
  }

  #sortNodes(nodes: VertexNode<V>[]): void {
    const names = new Map<VertexNode<V>, string>();
    for (const node of nodes) names.set(node, this.name(node.vertex));
    nodes.sort((a, b) => compareNames(names.get(a) as string, names.get(b) as string));
  }

  /**
   * Removes every edge u → w for which another path from u to w exists, in place (OpenTofu's
   * TransitiveReduction). The result keeps reachability with as few edges as possible; for an
   * acyclic graph that reduction is unique, so it is the same graph OpenTofu's produces.
   * Throws GraphCycleError when the graph has a cycle.
   *
   * OpenTofu searches depth-first from every vertex's targets (O(V·E) Set operations). Here
   * reachability is computed as bit sets over the vertices in topological order, a band of target
   * positions at a time so memory stays bounded (≤ 32 MiB): for each vertex u, from last to first,
   * D(u) = the union of the reach sets of u's targets; an edge u → c is redundant exactly when c
   * is in D(u); then reach(u) = D(u) plus u's targets. O(V·E / 32) word operations at worst.
   */
  transitiveReduction(): void {
    const nodes = numberNodes(this);
    const n = nodes.length;
    if (n === 0) return;
    const down = adjacency(nodes, "down");
    const m = down.to.length;

    // Topological positions, sources first.
    const waiting = new Int32Array(n);
    const order = new Int32Array(n);
    let tail = 0;
    for (let i = 0; i < n; i++) {
      waiting[i] = (nodes[i] as VertexNode<V>).up.size;
      if (waiting[i] === 0) order[tail++] = i;
    }
    for (let head = 0; head < tail; head++) {
      const v = order[head] as number;
      for (let e = down.off[v] as number, end = down.off[v + 1] as number; e < end; e++) {
        const w = down.to[e] as number;
        const left = (waiting[w] as number) - 1;
        waiting[w] = left;
        if (left === 0) order[tail++] = w;
      }
    }
    if (tail < n) throw this.cycleError();
    const pos = new Int32Array(n);
    for (let p = 0; p < n; p++) pos[order[p] as number] = p;

    // Targets by position: vertex at position p has targets cto[coff[p] … coff[p + 1] - 1].
    const coff = new Int32Array(n + 1);
    const cto = new Int32Array(m);
    let k = 0;
    for (let p = 0; p < n; p++) {
      coff[p] = k;
      const v = order[p] as number;
      for (let e = down.off[v] as number, end = down.off[v + 1] as number; e < end; e++) cto[k++] = pos[down.to[e] as number] as number;
    }
    coff[n] = k;

    const words = Math.max(1, Math.min(Math.ceil(n / 32), Math.floor((32 * 1024 * 1024) / 4 / n)));
    const band = words * 32;
    const bits = new Uint32Array(n * words);
    const nonEmpty = new Uint8Array(n);
    const redundant = new Uint8Array(m);
    for (let lo = 0; lo < n; lo += band) {
      const hi = Math.min(n, lo + band);
      const lastWord = (hi - 1 - lo) >>> 5;
      bits.fill(0, 0, hi * words);
      nonEmpty.fill(0, 0, hi);
      // Only vertices before `hi` can reach a position in [lo, hi).
      for (let u = hi - 1; u >= 0; u--) {
        const cs = coff[u] as number;
        const ce = coff[u + 1] as number;
        if (cs === ce) continue;
        const ub = u * words;
        let any = 0;
        for (let e = cs; e < ce; e++) {
          const c = cto[e] as number;
          if (!nonEmpty[c]) continue;
          const cb = c * words;
          // c reaches only positions after c.
          for (let w = c + 1 <= lo ? 0 : (c + 1 - lo) >>> 5; w <= lastWord; w++) bits[ub + w] = (bits[ub + w] as number) | (bits[cb + w] as number);
          any = 1;
        }
        for (let e = cs; e < ce; e++) {
          const c = cto[e] as number;
          if (c < lo || c >= hi) continue;
          const b = c - lo;
          const at = ub + (b >>> 5);
          const mask = 1 << (b & 31);
          if (any && ((bits[at] as number) & mask) !== 0) redundant[e] = 1;
        }
        for (let e = cs; e < ce; e++) {
          const c = cto[e] as number;
          if (c < lo || c >= hi) continue;
          const b = c - lo;
          const at = ub + (b >>> 5);
          bits[at] = (bits[at] as number) | (1 << (b & 31));
          any = 1;
        }
        nonEmpty[u] = any;
      }
    }

    for (let p = 0; p < n; p++) {
      for (let e = coff[p] as number, end = coff[p + 1] as number; e < end; e++) {
        if (!redundant[e]) continue;
        const source = nodes[order[p] as number] as VertexNode<V>;
        const target = nodes[order[cto[e] as number] as number] as VertexNode<V>;
        graphInternals.removeEdge(this, source, target);
      }
    }
  }
}
