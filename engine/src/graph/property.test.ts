// Property tests on random graphs (seeded, so a failure reproduces): the walk respects every edge
// and the parallelism limit and skips exactly the vertices below a failure; transitive reduction
// keeps reachability and is minimal; Tarjan finds exactly the cycles; sorted topological orders
// are the smallest by name. Each is checked against a plain, obviously-correct computation.
import { describe, expect, it } from "vitest";
import { AcyclicGraph, Graph, compareNames, stronglyConnected, walk } from "./index.js";

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Random {
  n: number;
  edges: [number, number][];
  g: AcyclicGraph<number>;
}

/** A random DAG: edges go from a higher to a lower number; vertices inserted in random order. */
function randomDag(rand: () => number, maxN: number, density: number): Random {
  const n = 1 + Math.floor(rand() * maxN);
  const edges: [number, number][] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) if (rand() < density) edges.push([i, j]);
  return { n, edges, g: buildGraph(rand, n, edges) };
}

/** A random directed graph that may have cycles and self edges. */
function randomDigraph(rand: () => number, maxN: number, density: number): Random {
  const n = 1 + Math.floor(rand() * maxN);
  const edges: [number, number][] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (rand() < density) edges.push([i, j]);
  return { n, edges, g: buildGraph(rand, n, edges) };
}

function buildGraph(rand: () => number, n: number, edges: [number, number][]): AcyclicGraph<number> {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  const g = new AcyclicGraph<number>({ name: (v) => `v${v}` });
  for (const v of order) g.add(v);
  const shuffled = [...edges].sort(() => rand() - 0.5);
  for (const [s, t] of shuffled) g.connect(s, t);
  return g;
}

/** reach[u] = every vertex reachable from u by one or more edges. */
function closure(n: number, edges: readonly (readonly [number, number])[]): Set<number>[] {
  const out: number[][] = Array.from({ length: n }, () => []);
  for (const [s, t] of edges) out[s]?.push(t);
  return out.map((_, u) => {
    const seen = new Set<number>();
    const stack = [...(out[u] as number[])];
    while (stack.length) {
      const v = stack.pop() as number;
      if (seen.has(v)) continue;
      seen.add(v);
      stack.push(...(out[v] as number[]));
    }
    return seen;
  });
}

const SEEDS = Array.from({ length: 60 }, (_, i) => i + 1);

describe("property: walk", () => {
  it.each(SEEDS)("respects every edge and the parallelism limit (seed %i)", async (seed) => {
    const rand = mulberry32(seed);
    const { g, edges } = randomDag(rand, 40, 0.15);
    const limit = 1 + Math.floor(rand() * 5);
    const done = new Set<number>();
    let running = 0;
    let most = 0;
    const r = await walk(
      g,
      async (v) => {
        running++;
        most = Math.max(most, running);
        for (const dep of g.downEdges(v)) expect(done.has(dep), `v${v} started before v${dep}`).toBe(true);
        for (let k = Math.floor(rand() * 4); k > 0; k--) await Promise.resolve();
        running--;
        done.add(v);
      },
      { parallelism: limit },
    );
    expect(r.succeeded).toBe(g.size);
    expect(most).toBeLessThanOrEqual(limit);
    for (const [s, t] of edges) expect(done.has(s) && done.has(t)).toBe(true);
  });

  it.each(SEEDS)("skips exactly the vertices below a failure (seed %i)", async (seed) => {
    const rand = mulberry32(seed * 7919);
    const { g, n, edges } = randomDag(rand, 40, 0.1);
    const failing = new Set<number>();
    for (let i = 0; i < n; i++) if (rand() < 0.15) failing.add(i);
    // Expected: in dependency order (edges go high → low, so ascending numbers), a vertex is
    // skipped if a dependency did not succeed, else it fails if it is one of `failing`.
    const want = new Map<number, string>();
    const deps: number[][] = Array.from({ length: n }, () => []);
    for (const [s, t] of edges) deps[s]?.push(t);
    for (let v = 0; v < n; v++) {
      const blocked = (deps[v] as number[]).some((d) => want.get(d) !== "succeeded");
      want.set(v, blocked ? "skipped" : failing.has(v) ? "failed" : "succeeded");
    }
    const r = await walk(g, async (v) => {
      await Promise.resolve();
      if (failing.has(v)) throw new Error(`v${v}`);
    });
    for (const o of r.outcomes) expect(o.status, `v${o.vertex}`).toBe(want.get(o.vertex));
  });
});

describe("property: transitive reduction", () => {
  it.each(SEEDS)("keeps reachability and removes every redundant edge (seed %i)", (seed) => {
    const rand = mulberry32(seed * 31);
    const { g, n, edges } = randomDag(rand, 45, 0.2);
    const before = closure(n, edges);
    g.transitiveReduction();
    const kept = g.edges().map((e) => [e.source, e.target] as const);
    const after = closure(n, kept);
    for (let u = 0; u < n; u++) expect([...(after[u] as Set<number>)].sort()).toEqual([...(before[u] as Set<number>)].sort());
    // Minimal: no kept edge u → v is implied by another path (v reachable from another target of u).
    for (const [u, v] of kept) {
      for (const w of g.downEdges(u)) if (w !== v) expect((after[w] as Set<number>).has(v), `v${u} -> v${v} is redundant`).toBe(false);
    }
    expect(g.edgeCount).toBe(kept.length);
  });

  it("reduces a random 17,000-vertex DAG across two bit-set bands", () => {
    const rand = mulberry32(99);
    const n = 17_000;
    const g = new AcyclicGraph<number>();
    for (let i = 0; i < n; i++) g.add(i);
    const span = 60;
    for (let i = 1; i < n; i++) for (let k = 0; k < 3; k++) g.connect(i, Math.max(0, i - 1 - Math.floor(rand() * span)));
    const original = g.copy();
    g.transitiveReduction();
    // Edges go down by at most `span`, so a path from w to v (w > v) stays within [v, w]: the
    // search below is pruned there.
    const reaches = (graph: AcyclicGraph<number>, from: number, to: number, skip?: number): boolean => {
      const stack = [from];
      const seen = new Set<number>();
      while (stack.length) {
        const x = stack.pop() as number;
        if (x === to) return true;
        if (x < to || seen.has(x)) continue;
        seen.add(x);
        for (const y of graph.downEdges(x)) if (!(x === from && y === skip)) stack.push(y);
      }
      return false;
    };
    for (const { source, target } of original.edges()) {
      const redundant = reaches(original, source, target, target);
      expect(g.hasEdge(source, target), `${source} -> ${target}`).toBe(!redundant);
    }
  }, 60_000);
});

describe("property: cycles", () => {
  it.each(SEEDS)("Tarjan's components are exactly the mutually reachable sets (seed %i)", (seed) => {
    const rand = mulberry32(seed * 101);
    const { g, n, edges } = randomDigraph(rand, 30, 0.06);
    const reach = closure(n, edges);
    const want = new Set<string>();
    for (let u = 0; u < n; u++) {
      const comp = [u];
      for (let v = 0; v < n; v++) if (v !== u && reach[u]?.has(v) && reach[v]?.has(u)) comp.push(v);
      want.add(comp.sort((a, b) => a - b).join(","));
    }
    const got = stronglyConnected(g).map((c) => [...c].sort((a, b) => a - b).join(","));
    expect(got.length).toBe(want.size);
    expect(new Set(got)).toEqual(want);
    // validate names every cycle of two or more and every self edge, and nothing else.
    const messages = g.validate().map((p) => p.message);
    const wantMessages = [...want]
      .map((c) => c.split(",").map((x) => `v${x}`))
      .filter((c) => c.length > 1)
      .map((c) => `Cycle: ${c.sort(compareNames).join(", ")}`)
      .sort(compareNames);
    const selfs = edges.filter(([s, t]) => s === t).map(([s]) => s);
    expect(messages.filter((m) => m.startsWith("Cycle:"))).toEqual(wantMessages);
    expect(messages.filter((m) => m.startsWith("Self")).length).toBe(selfs.length);
    expect(messages.length).toBe(wantMessages.length + selfs.length);
  });
});

describe("property: topological order", () => {
  it.each(SEEDS)("is the name-smallest valid order (seed %i)", (seed) => {
    const rand = mulberry32(seed * 17);
    const { g, n, edges } = randomDag(rand, 35, 0.12);
    // The smallest order by name, picking among the free vertices by a linear scan.
    const smallest = (sourcesFirst: boolean): number[] => {
      const placed = new Set<number>();
      const out: number[] = [];
      while (out.length < n) {
        let best: number | undefined;
        for (let v = 0; v < n; v++) {
          if (placed.has(v)) continue;
          const free = edges.every(([s, t]) => (sourcesFirst ? t !== v || placed.has(s) : s !== v || placed.has(t)));
          if (free && (best === undefined || compareNames(`v${v}`, `v${best}`) < 0)) best = v;
        }
        placed.add(best as number);
        out.push(best as number);
      }
      return out;
    };
    expect(g.topologicalOrder()).toEqual(smallest(true));
    expect(g.reverseTopologicalOrder()).toEqual(smallest(false));
  });

  it.each(SEEDS.slice(0, 20))("ancestors and descendants match reachability (seed %i)", (seed) => {
    const rand = mulberry32(seed * 13);
    const { g, n, edges } = randomDag(rand, 30, 0.15);
    const reach = closure(n, edges);
    const reversed = closure(
      n,
      edges.map(([s, t]) => [t, s] as const),
    );
    for (let v = 0; v < n; v++) {
      expect(new Set(g.ancestors(v))).toEqual(reach[v]);
      expect(new Set(g.descendants(v))).toEqual(reversed[v]);
    }
    expect(new Graph<number>().vertices()).toEqual([]);
  });
});
