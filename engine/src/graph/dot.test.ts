import { describe, expect, it } from "vitest";
import { AcyclicGraph, Graph, goQuote, toDot, toGraphJSON } from "./index.js";

interface Node {
  readonly addr: string;
  readonly kind: "resource" | "provider" | "root";
}

function tofuLike(): AcyclicGraph<Node> {
  const g = new AcyclicGraph<Node>({ key: (n) => n.addr, name: (n) => n.addr });
  const provider = g.add({ addr: 'provider["registry.opentofu.org/hashicorp/aws"]', kind: "provider" });
  const b = g.add({ addr: "aws_instance.b (expand)", kind: "resource" });
  const a = g.add({ addr: "aws_instance.a (expand)", kind: "resource" });
  const root = g.add({ addr: "root", kind: "root" });
  g.connect(a, provider);
  g.connect(b, provider);
  g.connect(b, a);
  g.connect(root, b);
  return g;
}

describe("toDot", () => {
  it("prints tofu graph's layout: sorted, quoted, attributes from the node function", () => {
    const dot = toDot(tofuLike(), {
      // As OpenTofu's nodes do: the label is the raw name, quoted once as an attribute value.
      node: (v) => (v.kind === "root" ? null : { attrs: { label: v.addr.replace(" (expand)", ""), shape: v.kind === "provider" ? "diamond" : "box" } }),
    });
    expect(dot).toBe(
      [
        "digraph {",
        '\tcompound = "true"',
        '\tnewrank = "true"',
        '\tsubgraph "root" {',
        '\t\t"[root] aws_instance.a (expand)" [label = "aws_instance.a", shape = "box"]',
        '\t\t"[root] aws_instance.b (expand)" [label = "aws_instance.b", shape = "box"]',
        '\t\t"[root] provider[\\"registry.opentofu.org/hashicorp/aws\\"]" [label = "provider[\\"registry.opentofu.org/hashicorp/aws\\"]", shape = "diamond"]',
        '\t\t"[root] aws_instance.a (expand)" -> "[root] provider[\\"registry.opentofu.org/hashicorp/aws\\"]"',
        '\t\t"[root] aws_instance.b (expand)" -> "[root] aws_instance.a (expand)"',
        '\t\t"[root] aws_instance.b (expand)" -> "[root] provider[\\"registry.opentofu.org/hashicorp/aws\\"]"',
        '\t\t"[root] root" -> "[root] aws_instance.b (expand)"',
        "\t}",
        "}",
        "",
      ].join("\n"),
    );
  });

  it("draws every vertex without a node function, and cycles in red", () => {
    const g = new Graph<string>();
    for (const v of ["c", "a", "b"]) g.add(v);
    g.connect("a", "b");
    g.connect("b", "a");
    g.connect("c", "a");
    expect(toDot(g)).toBe(
      [
        "digraph {",
        '\tcompound = "true"',
        '\tnewrank = "true"',
        '\tsubgraph "root" {',
        '\t\t"[root] a"',
        '\t\t"[root] b"',
        '\t\t"[root] c"',
        '\t\t"[root] a" -> "[root] b"',
        '\t\t"[root] a" -> "[root] b" [color = "red", penwidth = "2.0"]',
        '\t\t"[root] b" -> "[root] a"',
        '\t\t"[root] b" -> "[root] a" [color = "red", penwidth = "2.0"]',
        '\t\t"[root] c" -> "[root] a"',
        "\t}",
        "}",
        "",
      ].join("\n"),
    );
    expect(toDot(g, { drawCycles: false })).not.toContain("red");
  });

  it("writes subgraph vertices as cluster subgraphs", () => {
    const inner = new Graph<string>();
    inner.add("x");
    inner.add("y");
    inner.connect("x", "y");
    const g = new Graph<string>();
    g.add("module.m");
    const subgraph = (v: string) => (v === "module.m" ? inner : undefined);
    expect(toDot(g, { subgraph })).toBe(
      [
        "digraph {",
        '\tcompound = "true"',
        '\tnewrank = "true"',
        '\tsubgraph "root" {',
        '\t\t"[root] module.m"',
        "\t}",
        '\tsubgraph "cluster_module.m" {',
        '\t\tlabel = "module.m"',
        '\t\t"[module.m] x"',
        '\t\t"[module.m] y"',
        '\t\t"[module.m] x" -> "[module.m] y"',
        "\t}",
        "}",
        "",
      ].join("\n"),
    );
    expect(toDot(g, { subgraph, maxDepth: 0 })).toContain('\tsubgraph "module.m" {\n\t\t"[module.m] x"');
  });
});

describe("goQuote", () => {
  it.each([
    { s: "plain", want: '"plain"' },
    { s: 'a"b\\c', want: '"a\\"b\\\\c"' },
    { s: "tab\tnl\ncr\r", want: '"tab\\tnl\\ncr\\r"' },
    { s: "\x00\x1b\x7f", want: '"\\x00\\x1b\\x7f"' },
    { s: "\x07\b\f\v", want: '"\\a\\b\\f\\v"' },
    { s: "\u0085\u00ad\u2028\ufeff", want: '"\\u0085\\u00ad\\u2028\\ufeff"' },
    { s: "héllo 世界 😀", want: '"héllo 世界 😀"' },
    { s: "lone \ud800", want: '"lone \\ufffd"' },
  ])("quotes $s like Go's %q", ({ s, want }) => {
    expect(goQuote(s)).toBe(want);
  });
});

describe("toGraphJSON", () => {
  it("lists nodes and edges sorted by name, with attributes", () => {
    const json = toGraphJSON(tofuLike(), { attrs: (v) => ({ kind: v.kind }) });
    expect(json.nodes.map((n) => [n.id, n.attrs?.kind])).toEqual([
      ["aws_instance.a (expand)", "resource"],
      ["aws_instance.b (expand)", "resource"],
      ['provider["registry.opentofu.org/hashicorp/aws"]', "provider"],
      ["root", "root"],
    ]);
    expect(json.edges).toEqual([
      { source: "aws_instance.a (expand)", target: 'provider["registry.opentofu.org/hashicorp/aws"]' },
      { source: "aws_instance.b (expand)", target: "aws_instance.a (expand)" },
      { source: "aws_instance.b (expand)", target: 'provider["registry.opentofu.org/hashicorp/aws"]' },
      { source: "root", target: "aws_instance.b (expand)" },
    ]);
    expect(json.cycles).toEqual([]);
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it("makes ids unique when names repeat, and lists cycles", () => {
    const g = new Graph<{ n: string }>({ name: (v) => v.n });
    const a1 = g.add({ n: "a" });
    const a2 = g.add({ n: "a" });
    const b = g.add({ n: "a#2" });
    g.connect(a1, a2);
    g.connect(a2, a1);
    g.connect(b, a1);
    const json = toGraphJSON(g);
    expect(json.nodes).toEqual([
      { id: "a", name: "a" },
      { id: "a#2", name: "a" },
      { id: "a#2#2", name: "a#2" },
    ]);
    expect(json.edges).toEqual([
      { source: "a", target: "a#2" },
      { source: "a#2", target: "a" },
      { source: "a#2#2", target: "a" },
    ]);
    expect(json.cycles.map((c) => [...c].sort())).toEqual([["a", "a#2"]]);
  });

  it("rejects duplicate ids from an id function", () => {
    const g = new Graph<string>();
    g.add("a");
    g.add("b");
    expect(() => toGraphJSON(g, { id: () => "same" })).toThrow(/duplicate node id/);
  });
});
