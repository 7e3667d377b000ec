// The directed graph every walk runs on: OpenTofu's dag.Graph. Vertices are any values; two
// vertices are the same vertex when their keys are equal (`GraphOptions.key`), or, without a key
// function, when they are the same value (object identity, or primitive equality).
//
// Edges follow OpenTofu's convention: an edge `source → target` means "source depends on target",
// so a walk visits targets before sources (see walk.ts). Each vertex keeps two insertion-ordered
// sets of neighbour records (down: targets of its edges, up: sources of edges to it), so adding,
// removing and looking up an edge are O(1) and every listing is deterministic: vertices in
// insertion order, neighbours in the order their edges were added.

/** A directed edge from `source` to `target` (in the engine's graphs: source depends on target). */
export interface Edge<V> {
  readonly source: V;
  readonly target: V;
}

/** How a graph identifies and names its vertices. */
export interface GraphOptions<V> {
  /**
   * A vertex's identity. Vertices with equal keys (SameValueZero, as `Map` compares) are one
   * vertex. Without it, identity is the vertex value itself.
   */
  readonly key?: (vertex: V) => unknown;
  /**
   * A vertex's human-readable name, used by sorted orders, cycle messages, `toString`, DOT and
   * JSON output. Default: `vertexName`.
   */
  readonly name?: (vertex: V) => string;
}

/**
 * The default vertex name (OpenTofu's dag.VertexName): a string is its own name; an object with a
 * `name()` method or a `name` string property uses that; an object with its own `toString` uses
 * it; anything else is `String(vertex)`.
 */
export function vertexName(vertex: unknown): string {
  if (typeof vertex === "string") return vertex;
  if (typeof vertex === "object" && vertex !== null) {
    const named = vertex as { name?: unknown };
    if (typeof named.name === "function") return String((named.name as () => unknown).call(vertex));
    if (typeof named.name === "string") return named.name;
  }
  return String(vertex);
}

/**
 * Compares two names by Unicode code point, which is the byte order of their UTF-8 encodings:
 * the order Go's `sort.Strings` gives OpenTofu's sorted output. (JavaScript's `<` compares UTF-16
 * code units, which differs for characters outside the Basic Multilingual Plane.)
 */
export function compareNames(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (0xD800–0xDFFF) encodes a code point above 0xFFFF, which sorts after every
    // BMP character, including 0xE000–0xFFFF that are numerically larger code units.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/**
 * One vertex's record: the vertex and its neighbours. Internal to this module (never exported
 * from index.ts); `index` is scratch space the algorithms use to number vertices densely.
 */
export class VertexNode<V> {
  readonly down = new Set<VertexNode<V>>();
  readonly up = new Set<VertexNode<V>>();
  index = 0;
  constructor(public vertex: V) {}
}

/** Module-internal access to a graph's records (assigned by Graph's static block). */
export let graphInternals: {
  nodes<V>(g: Graph<V>): Map<unknown, VertexNode<V>>;
  node<V>(g: Graph<V>, vertex: V): VertexNode<V> | undefined;
  removeEdge<V>(g: Graph<V>, source: VertexNode<V>, target: VertexNode<V>): void;
};

/** A directed graph (OpenTofu's dag.Graph). Cycles are allowed here; see AcyclicGraph. */
export class Graph<V> {
  readonly #nodes = new Map<unknown, VertexNode<V>>();
  readonly #key: ((vertex: V) => unknown) | undefined;
  readonly #name: (vertex: V) => string;
  readonly #options: GraphOptions<V>;
  #edgeCount = 0;

  static {
    graphInternals = {
      nodes: (g) => g.#nodes,
      node: (g, vertex) => g.#node(vertex),
      removeEdge: (g, source, target) => g.#unlink(source, target),
    };
  }

  constructor(options: GraphOptions<V> = {}) {
    this.#options = options;
    this.#key = options.key;
    this.#name = options.name ?? vertexName;
  }

  /** The options this graph was made with (a copy or reverse keeps them). */
  get options(): GraphOptions<V> {
    return this.#options;
  }

  /** The number of vertices. */
  get size(): number {
    return this.#nodes.size;
  }

  /** The number of edges. */
  get edgeCount(): number {
    return this.#edgeCount;
  }

  /** The vertex's name (the graph's name function). */
  name(vertex: V): string {
    return this.#name(vertex);
  }

  #node(vertex: V): VertexNode<V> | undefined {
    return this.#nodes.get(this.#key ? this.#key(vertex) : vertex);
  }

  #existing(vertex: V, what: string): VertexNode<V> {
    const node = this.#node(vertex);
    if (!node) throw new Error(`graph: ${what} ${JSON.stringify(this.#name(vertex))} is not in the graph`);
    return node;
  }

  #unlink(source: VertexNode<V>, target: VertexNode<V>): void {
    if (source.down.delete(target)) {
      target.up.delete(source);
      this.#edgeCount--;
    }
  }

  /** Whether the graph holds this vertex (by key). */
  hasVertex(vertex: V): boolean {
    return this.#node(vertex) !== undefined;
  }

  /** Whether the graph holds the edge source → target. */
  hasEdge(source: V, target: V): boolean {
    const s = this.#node(source);
    const t = this.#node(target);
    return s !== undefined && t !== undefined && s.down.has(t);
  }

  /**
   * Adds a vertex. Adding one already present (by key) is a no-op that keeps the stored vertex;
   * the stored vertex is returned either way.
   */
  add(vertex: V): V {
    const k = this.#key ? this.#key(vertex) : vertex;
    const existing = this.#nodes.get(k);
    if (existing) return existing.vertex;
    this.#nodes.set(k, new VertexNode(vertex));
    return vertex;
  }

  /** Removes a vertex and every edge to or from it. Returns whether it was present. */
  remove(vertex: V): boolean {
    const k = this.#key ? this.#key(vertex) : vertex;
    const node = this.#nodes.get(k);
    if (!node) return false;
    this.#nodes.delete(k);
    // A self-edge is in both sets but is one edge.
    this.#edgeCount -= node.down.size + node.up.size - (node.down.has(node) ? 1 : 0);
    for (const t of node.down) t.up.delete(node);
    for (const s of node.up) s.down.delete(node);
    node.down.clear();
    node.up.clear();
    return true;
  }

  /**
   * Replaces `original` with `replacement`, which takes over all of original's edges (OpenTofu's
   * Graph.Replace). Returns false, changing nothing, when original is not in the graph. When the
   * two are the same vertex (by key) nothing changes.
   */
  replace(original: V, replacement: V): boolean {
    const o = this.#node(original);
    if (!o) return false;
    const rk = this.#key ? this.#key(replacement) : replacement;
    let r = this.#nodes.get(rk);
    if (r === o) return true;
    if (!r) {
      r = new VertexNode(replacement);
      this.#nodes.set(rk, r);
    }
    for (const t of o.down) this.#link(r, t === o ? r : t);
    for (const s of o.up) if (s !== o) this.#link(s, r);
    this.remove(o.vertex);
    return true;
  }

  #link(s: VertexNode<V>, t: VertexNode<V>): void {
    if (s.down.has(t)) return;
    s.down.add(t);
    t.up.add(s);
    this.#edgeCount++;
  }

  /**
   * Adds the edge source → target ("source depends on target"); adding it again is a no-op.
   * Both vertices must already be in the graph: connecting an unknown vertex is a bug in the
   * caller, so it throws.
   */
  connect(source: V, target: V): void {
    this.#link(this.#existing(source, "edge source"), this.#existing(target, "edge target"));
  }

  /** Removes the edge source → target. Returns whether it was present. */
  removeEdge(source: V, target: V): boolean {
    const s = this.#node(source);
    const t = this.#node(target);
    if (!s || !t || !s.down.has(t)) return false;
    this.#unlink(s, t);
    return true;
  }

  /** Every vertex, in insertion order. */
  vertices(): V[] {
    const out = new Array<V>(this.#nodes.size);
    let i = 0;
    for (const node of this.#nodes.values()) out[i++] = node.vertex;
    return out;
  }

  /** Every edge: by source in insertion order, then by the order the edges were added. */
  edges(): Edge<V>[] {
    const out: Edge<V>[] = [];
    for (const s of this.#nodes.values()) for (const t of s.down) out.push({ source: s.vertex, target: t.vertex });
    return out;
  }

  /** The targets of edges from `vertex` (what it depends on). Empty when it is not in the graph. */
  downEdges(vertex: V): V[] {
    const node = this.#node(vertex);
    return node ? vertexList(node.down) : [];
  }

  /** The sources of edges to `vertex` (what depends on it). Empty when it is not in the graph. */
  upEdges(vertex: V): V[] {
    const node = this.#node(vertex);
    return node ? vertexList(node.up) : [];
  }

  /** The edges whose source is `vertex`. */
  edgesFrom(vertex: V): Edge<V>[] {
    const node = this.#node(vertex);
    if (!node) return [];
    const out: Edge<V>[] = [];
    for (const t of node.down) out.push({ source: node.vertex, target: t.vertex });
    return out;
  }

  /** The edges whose target is `vertex`. */
  edgesTo(vertex: V): Edge<V>[] {
    const node = this.#node(vertex);
    if (!node) return [];
    const out: Edge<V>[] = [];
    for (const s of node.up) out.push({ source: s.vertex, target: node.vertex });
    return out;
  }

  /** Vertices no edge points to (nothing depends on them), in insertion order. */
  roots(): V[] {
    const out: V[] = [];
    for (const node of this.#nodes.values()) if (node.up.size === 0) out.push(node.vertex);
    return out;
  }

  /** Vertices with no edges out (they depend on nothing), in insertion order. */
  leaves(): V[] {
    const out: V[] = [];
    for (const node of this.#nodes.values()) if (node.down.size === 0) out.push(node.vertex);
    return out;
  }

  /**
   * Adds every vertex and edge of `other` (OpenTofu's Graph.Subsume). Vertices already present
   * (by this graph's key) are kept, and other's edges attach to them.
   */
  subsume(other: Graph<V>): void {
    for (const v of other.vertices()) this.add(v);
    for (const s of other.#nodes.values()) {
      const sn = this.#existing(s.vertex, "vertex");
      for (const t of s.down) this.#link(sn, this.#existing(t.vertex, "vertex"));
    }
  }

  /** A new, empty graph of the same class and options. */
  protected empty(): this {
    const make = this.constructor as new (options: GraphOptions<V>) => this;
    return new make(this.#options);
  }

  /** A copy with the same vertices, edges and options. */
  copy(): this {
    const g = this.empty();
    g.subsume(this);
    return g;
  }

  /** A copy with every edge turned around: source → target becomes target → source. */
  reverse(): this {
    const g = this.empty();
    for (const node of this.#nodes.values()) g.add(node.vertex);
    for (const s of this.#nodes.values()) {
      const rt = g.#existing(s.vertex, "vertex");
      for (const t of s.down) g.#link(g.#existing(t.vertex, "vertex"), rt);
    }
    return g;
  }

  /**
   * OpenTofu's Graph.String: each vertex name on its own line, sorted, followed by the names of
   * its edges' targets, sorted and indented two spaces. Tests compare graphs with it.
   */
  toString(): string {
    const nodes = [...this.#nodes.values()].map((n) => ({ n, name: this.#name(n.vertex) }));
    nodes.sort((a, b) => compareNames(a.name, b.name));
    const lines: string[] = [];
    for (const { n, name } of nodes) {
      lines.push(name);
      const deps = [...n.down].map((t) => this.#name(t.vertex)).sort(compareNames);
      for (const d of deps) lines.push(`  ${d}`);
    }
    return lines.length ? lines.join("\n") + "\n" : "";
  }
}

function vertexList<V>(nodes: Set<VertexNode<V>>): V[] {
  const out = new Array<V>(nodes.size);
  let i = 0;
  for (const n of nodes) out[i++] = n.vertex;
  return out;
}
