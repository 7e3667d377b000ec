import { describe, expect, it } from "vitest";
import { compareNames, Graph, vertexName } from "./index.js";

function build(vertices: string[], edges: [string, string][]): Graph<string> {
  const g = new Graph<string>();
  for (const v of vertices) g.add(v);
  for (const [s, t] of edges) g.connect(s, t);
  return g;
}

describe("Graph", () => {
  it("adds vertices once and connects edges once", () => {
    const g = build(["a", "b", "c"], [["a", "b"], ["a", "b"], ["b", "c"]]);
    g.add("a");
    expect(g.size).toBe(3);
    expect(g.edgeCount).toBe(2);
    expect(g.vertices()).toEqual(["a", "b", "c"]);
    expect(g.edges()).toEqual([
      { source: "a", target: "b" },
      { source: "b", target: "c" },
    ]);
    expect(g.downEdges("a")).toEqual(["b"]);
    expect(g.upEdges("c")).toEqual(["b"]);
    expect(g.edgesFrom("b")).toEqual([{ source: "b", target: "c" }]);
    expect(g.edgesTo("b")).toEqual([{ source: "a", target: "b" }]);
    expect(g.hasEdge("a", "b")).toBe(true);
    expect(g.hasEdge("b", "a")).toBe(false);
    expect(g.downEdges("zz")).toEqual([]);
  });

  it("throws when connecting a vertex that is not in the graph", () => {
    const g = build(["a"], []);
    expect(() => g.connect("a", "b")).toThrow(/edge target "b" is not in the graph/);
    expect(() => g.connect("x", "a")).toThrow(/edge source "x"/);
  });

  it.each([
    { what: "middle vertex", remove: "b", vertices: ["a", "c"], edges: 2 },
    { what: "absent vertex", remove: "z", vertices: ["a", "b", "c"], edges: 4 },
    { what: "vertex with self edge", remove: "c", vertices: ["a", "b"], edges: 1 },
  ])("removes a $what with its edges", ({ remove, vertices, edges }) => {
    const g = build(["a", "b", "c"], [["a", "b"], ["b", "c"], ["a", "c"], ["c", "c"]]);
    g.remove(remove);
    expect(g.vertices()).toEqual(vertices);
    expect(g.edgeCount).toBe(edges);
    expect(g.edges().length).toBe(edges);
  });

  it("removes edges", () => {
    const g = build(["a", "b"], [["a", "b"]]);
    expect(g.removeEdge("a", "b")).toBe(true);
    expect(g.removeEdge("a", "b")).toBe(false);
    expect(g.edgeCount).toBe(0);
    expect(g.upEdges("b")).toEqual([]);
  });

  it("replaces a vertex, moving its edges", () => {
    const g = build(["a", "b", "c"], [["a", "b"], ["b", "c"], ["b", "b"]]);
    expect(g.replace("b", "B")).toBe(true);
    expect(g.toString()).toBe("B\n  B\n  c\na\n  B\nc\n");
    expect(g.replace("zz", "y")).toBe(false);
    expect(g.replace("a", "a")).toBe(true);
    // Replacing with a vertex already present merges the edges into it.
    expect(g.replace("a", "c")).toBe(true);
    expect(g.toString()).toBe("B\n  B\n  c\nc\n  B\n");
    expect(g.edgeCount).toBe(3);
  });

  it("identifies vertices by key", () => {
    interface R {
      readonly addr: string;
      readonly n: number;
    }
    const g = new Graph<R>({ key: (r) => r.addr, name: (r) => r.addr });
    const first = { addr: "aws_instance.a", n: 1 };
    g.add(first);
    expect(g.add({ addr: "aws_instance.a", n: 2 })).toBe(first);
    g.add({ addr: "aws_instance.b", n: 3 });
    g.connect({ addr: "aws_instance.a", n: 0 }, { addr: "aws_instance.b", n: 0 });
    expect(g.hasVertex({ addr: "aws_instance.b", n: 9 })).toBe(true);
    expect(g.downEdges({ addr: "aws_instance.a", n: 9 })).toEqual([{ addr: "aws_instance.b", n: 3 }]);
  });

  it("identifies object vertices by identity without a key", () => {
    const g = new Graph<{ id: string }>();
    const a = { id: "x" };
    g.add(a);
    g.add({ id: "x" });
    expect(g.size).toBe(2);
    expect(g.hasVertex(a)).toBe(true);
  });

  it("lists roots and leaves", () => {
    const g = build(["a", "b", "c", "d"], [["a", "b"], ["b", "c"]]);
    expect(g.roots()).toEqual(["a", "d"]);
    expect(g.leaves()).toEqual(["c", "d"]);
  });

  it("subsumes another graph, copies and reverses", () => {
    const g = build(["a", "b"], [["a", "b"]]);
    g.subsume(build(["b", "c"], [["b", "c"]]));
    expect(g.toString()).toBe("a\n  b\nb\n  c\nc\n");
    const r = g.reverse();
    expect(r).toBeInstanceOf(Graph);
    expect(r.toString()).toBe("a\nb\n  a\nc\n  b\n");
    const c = g.copy();
    c.remove("a");
    expect(g.size).toBe(3);
    expect(c.size).toBe(2);
  });

  it("prints OpenTofu's String form", () => {
    expect(build(["3", "1", "2"], [["1", "3"], ["1", "2"]]).toString()).toBe("1\n  2\n  3\n2\n3\n");
    expect(new Graph().toString()).toBe("");
  });
});

describe("vertexName", () => {
  it.each([
    { v: "aws_instance.a", want: "aws_instance.a" },
    { v: 12, want: "12" },
    { v: { name: () => "method" }, want: "method" },
    { v: { name: "prop" }, want: "prop" },
    { v: { toString: () => "str" }, want: "str" },
    { v: null, want: "null" },
  ] as { v: unknown; want: string }[])("names $want", ({ v, want }) => {
    expect(vertexName(v)).toBe(want);
  });
});

describe("compareNames", () => {
  it.each([
    { a: "a", b: "b", sign: -1 },
    { a: "b", b: "a", sign: 1 },
    { a: "a", b: "a", sign: 0 },
    { a: "a", b: "ab", sign: -1 },
    { a: "10", b: "2", sign: -1 },
    { a: "Z", b: "a", sign: -1 },
    // U+FF5E (fullwidth tilde) is below U+1F600 (an emoji, a surrogate pair in UTF-16).
    { a: "\uff5e", b: "\u{1f600}", sign: -1 },
    { a: "\u{1f600}", b: "\uff5e", sign: 1 },
  ])("orders $a and $b by code point", ({ a, b, sign }) => {
    expect(Math.sign(compareNames(a, b))).toBe(sign);
  });
});
