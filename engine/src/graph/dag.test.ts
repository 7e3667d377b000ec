import { describe, expect, it } from "vitest";
import { AcyclicGraph, GraphCycleError } from "./index.js";

type E = [number, number];

function dag(n: number[] | number, edges: E[]): AcyclicGraph<number> {
  const g = new AcyclicGraph<number>();
  const vs = typeof n === "number" ? Array.from({ length: n }, (_, i) => i + 1) : n;
  for (const v of vs) g.add(v);
  for (const [s, t] of edges) g.connect(s, t);
  return g;
}

describe("AcyclicGraph.root", () => {
  it.each([
    { what: "one root", edges: [[3, 2], [3, 1]] as E[], want: { ok: true, root: 3 } },
    {
      what: "a cycle (no root)",
      edges: [[1, 2], [2, 3], [3, 1]] as E[],
      want: { ok: false, problem: { kind: "no-roots", message: "no roots found" } },
    },
    {
      what: "several roots",
      edges: [[3, 2]] as E[],
      want: { ok: false, problem: { kind: "multiple-roots", roots: [1, 3], message: "multiple roots found: 1, 3" } },
    },
  ])("$what", ({ edges, want }) => {
    expect(dag(3, edges).root()).toEqual(want);
  });
});

describe("AcyclicGraph.validate", () => {
  it.each([
    { what: "a valid graph", edges: [[3, 2], [3, 1]] as E[], singleRoot: true, want: [] as string[] },
    { what: "a two-vertex cycle", edges: [[3, 2], [3, 1], [1, 2], [2, 1]] as E[], singleRoot: true, want: ["Cycle: 1, 2"] },
    { what: "a self reference", edges: [[1, 1], [3, 1], [3, 2]] as E[], singleRoot: true, want: ["Self reference: 1"] },
    { what: "several roots, not asked", edges: [[3, 2]] as E[], singleRoot: false, want: [] },
    { what: "several roots, asked", edges: [[3, 2]] as E[], singleRoot: true, want: ["multiple roots found: 1, 3"] },
    {
      what: "two cycles and no root",
      n: 6,
      edges: [[1, 2], [2, 3], [3, 1], [4, 5], [5, 4], [6, 4], [4, 6], [3, 3]] as E[],
      singleRoot: true,
      want: ["no roots found", "Cycle: 1, 2, 3", "Cycle: 4, 5, 6", "Self reference: 3"],
    },
  ])("$what", ({ n, edges, singleRoot, want }) => {
    const problems = dag(n ?? 3, edges).validate({ singleRoot });
    expect(problems.map((p) => p.message)).toEqual(want);
  });

  it("names the vertices of each cycle with the graph's name function", () => {
    const g = new AcyclicGraph<{ addr: string }>({ name: (v) => v.addr });
    const a = g.add({ addr: "aws_instance.a" });
    const b = g.add({ addr: "aws_instance.b" });
    g.connect(a, b);
    g.connect(b, a);
    expect(g.validate()).toEqual([{ kind: "cycle", vertices: [a, b], message: "Cycle: aws_instance.a, aws_instance.b" }]);
  });
});

describe("AcyclicGraph.transitiveReduction", () => {
  // OpenTofu's dag_test.go cases, compared through the String form.
  it.each([
    { what: "triangle", n: 3, edges: [[1, 2], [1, 3], [2, 3]] as E[], want: "1\n  2\n2\n  3\n3\n" },
    { what: "more", n: 4, edges: [[1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4]] as E[], want: "1\n  2\n2\n  3\n3\n  4\n4\n" },
    {
      what: "multiple roots",
      n: 8,
      edges: [[1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4], [5, 6], [5, 7], [5, 8], [6, 7], [6, 8], [7, 8]] as E[],
      want: "1\n  2\n2\n  3\n3\n  4\n4\n5\n  6\n6\n  7\n7\n  8\n8\n",
    },
    { what: "diamond keeps both sides", n: 4, edges: [[1, 2], [1, 3], [2, 4], [3, 4], [1, 4]] as E[], want: "1\n  2\n  3\n2\n  4\n3\n  4\n4\n" },
    { what: "no edges", n: 2, edges: [] as E[], want: "1\n2\n" },
  ])("$what", ({ n, edges, want }) => {
    const g = dag(n, edges);
    g.transitiveReduction();
    expect(g.toString()).toBe(want);
    expect(g.edgeCount).toBe(g.edges().length);
  });

  it("reduces a fully connected 200-vertex DAG to a chain without naming vertices", () => {
    let names = 0;
    const g = new AcyclicGraph<number>({
      name: (v) => {
        names++;
        return String(v);
      },
    });
    for (let i = 0; i < 200; i++) g.add(i);
    for (let i = 0; i < 200; i++) for (let j = i + 1; j < 200; j++) g.connect(i, j);
    g.transitiveReduction();
    expect(g.edgeCount).toBe(199);
    for (let i = 0; i < 199; i++) expect(g.hasEdge(i, i + 1)).toBe(true);
    expect(names).toBe(0);
  });

  it("reduces across bands of its bit sets (more vertices than one band holds)", () => {
    // 40,000 vertices: a band is 32 MiB / 4 / 40,000 = 209 words = 6,688 positions, so 6 bands.
    const n = 40_000;
    const g = new AcyclicGraph<number>();
    for (let i = 0; i < n; i++) g.add(i);
    for (let i = 0; i + 1 < n; i++) g.connect(i, i + 1);
    for (let i = 0; i + 7000 < n; i += 997) g.connect(i, i + 7000);
    g.transitiveReduction();
    expect(g.edgeCount).toBe(n - 1);
  }, 60_000);

  it("throws a GraphCycleError on a cycle", () => {
    const g = dag(3, [[1, 2], [2, 1]]);
    expect(() => g.transitiveReduction()).toThrow(GraphCycleError);
    expect(() => g.transitiveReduction()).toThrow("Cycle: 1, 2");
  });
});

describe("AcyclicGraph ancestors and descendants", () => {
  // OpenTofu's: 0 → 1 → 2 → 3 → 4 → 5; ancestors follow edges, descendants go against them.
  const chain = () => dag([0, 1, 2, 3, 4, 5], [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5]]);
  it.each([
    { what: "ancestors of 2", f: (g: AcyclicGraph<number>) => g.ancestors(2), want: [3, 4, 5] },
    { what: "descendants of 2", f: (g: AcyclicGraph<number>) => g.descendants(2), want: [1, 0] },
    { what: "ancestors of a leaf", f: (g: AcyclicGraph<number>) => g.ancestors(5), want: [] },
    { what: "ancestors of an absent vertex", f: (g: AcyclicGraph<number>) => g.ancestors(9), want: [] },
  ])("$what", ({ f, want }) => {
    expect(f(chain())).toEqual(want);
  });
});

describe("AcyclicGraph traversals", () => {
  // OpenTofu's TestAcyclicGraphWalkOrder graph and expected sorted visits.
  //       1    2
  //      / \  /  \
  //     3    4    5
  //    /      \  /
  //   6         7
  //           / | \
  //          8  9  10
  //           \ | /
  //             11
  const g = dag(11, [[1, 3], [1, 4], [2, 4], [2, 5], [3, 6], [4, 7], [5, 7], [7, 8], [7, 9], [7, 10], [8, 11], [9, 11], [10, 11]]);
  type Walk = "depthFirstWalk" | "reverseDepthFirstWalk" | "breadthFirstWalk" | "reverseBreadthFirstWalk";
  it.each([
    { walk: "depthFirstWalk" as Walk, start: [2, 1], want: "2@0 5@1 7@2 9@3 11@4 8@3 10@3 4@1 1@0 3@1 6@2" },
    { walk: "reverseDepthFirstWalk" as Walk, start: [11, 6], want: "6@0 3@1 1@2 11@0 9@1 7@2 5@3 2@4 4@3 8@1 10@1" },
    { walk: "breadthFirstWalk" as Walk, start: [2, 1], want: "1@0 2@0 3@1 4@1 5@1 6@2 7@2 10@3 8@3 9@3 11@4" },
    { walk: "reverseBreadthFirstWalk" as Walk, start: [11, 6], want: "11@0 6@0 10@1 8@1 9@1 3@1 7@2 1@2 4@3 5@3 2@4" },
  ])("$walk visits in OpenTofu's sorted order", ({ walk, start, want }) => {
    const visits: string[] = [];
    g[walk](start, (v, d) => void visits.push(`${v}@${d}`), { sorted: true });
    expect(visits.join(" ")).toBe(want);
  });

  it("stops when the callback returns false", () => {
    const visits: number[] = [];
    g.breadthFirstWalk([1], (v) => {
      visits.push(v);
      return visits.length < 3;
    });
    expect(visits).toEqual([1, 3, 4]);
  });

  it("orders topologically with ties broken by name", () => {
    expect(g.topologicalOrder()).toEqual([1, 2, 3, 4, 5, 6, 7, 10, 8, 9, 11]);
    expect(g.reverseTopologicalOrder()).toEqual([11, 10, 6, 3, 8, 9, 7, 4, 1, 5, 2]);
  });

  it("gives the same sorted order however the graph was built", () => {
    const h = dag([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1], g.edges().reverse().map((e) => [e.source, e.target] as E));
    expect(h.topologicalOrder()).toEqual(g.topologicalOrder());
    expect(h.reverseTopologicalOrder()).toEqual(g.reverseTopologicalOrder());
  });

  it("throws a GraphCycleError from a topological order of a cyclic graph", () => {
    const c = dag(4, [[1, 2], [2, 3], [3, 2], [4, 4]]);
    expect(() => c.topologicalOrder()).toThrow("Cycle: 2, 3\nCycle: 4");
    try {
      c.reverseTopologicalOrder();
    } catch (e) {
      expect((e as GraphCycleError).cycles).toEqual([[2, 3], [4]]);
    }
  });

  it("reverses into an AcyclicGraph", () => {
    const r = g.reverse();
    expect(r).toBeInstanceOf(AcyclicGraph);
    expect(r.topologicalOrder()).toEqual(g.reverseTopologicalOrder());
  });
});
