// DOT output as `tofu graph` prints it (OpenTofu's dag/dot.go over its marshal form):
//
//   digraph {
//   	compound = "true"
//   	newrank = "true"
//   	subgraph "root" {
//   		"[root] a" [label = "a", shape = "box"]
//   		"[root] a" -> "[root] b"
//   	}
//   }
//
// Vertices sorted by name, then every edge line (and, with drawCycles, a red edge between
// consecutive vertices of each cycle) sorted as strings; names escaped as Go's strconv.Quote
// does; tab indentation. Vertices of a subgraph (`subgraph` option) are written after the root
// as `subgraph "cluster_<name>"` blocks, as OpenTofu does for its Subgrapher vertices.
import { compareNames, type Graph } from "./graph.js";
import { stronglyConnected } from "./tarjan.js";

/** A vertex's DOT attributes; `name` replaces its name in the node line (not in edge lines). */
export interface DotNode {
  readonly name?: string;
  readonly attrs?: Readonly<Record<string, string>>;
}

export interface DotOptions<V> {
  /**
   * The node line for a vertex (OpenTofu's GraphNodeDotter): undefined or null leaves the vertex's
   * line out (its edges are still drawn). Without this option every vertex gets a line with no
   * attributes.
   */
  readonly node?: (vertex: V, name: string) => DotNode | null | undefined;
  /** Draw each cycle as extra red edges. Default true. */
  readonly drawCycles?: boolean;
  /**
   * How many levels of subgraphs to draw (OpenTofu's MaxDepth): -1 (default) all; 0 also all, but
   * named without the "cluster_" prefix and label.
   */
  readonly maxDepth?: number;
  /** A vertex that is itself a graph (OpenTofu's Subgrapher). */
  readonly subgraph?: (vertex: V) => Graph<V> | undefined;
}

/**
 * A string escaped as Go's strconv.Quote escapes it, without the surrounding quotes: backslash,
 * double quote, the C escapes (\a \b \f \n \r \t \v), other ASCII control characters and DEL as
 * \xHH, and the C1 controls and the common invisible format characters as \uHHHH. Other
 * characters are kept as they are.
 */
export function goQuoteBody(s: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc: string | undefined;
    if (c === 0x22) esc = '\\"';
    else if (c === 0x5c) esc = "\\\\";
    else if (c < 0x20 || c === 0x7f) {
      switch (c) {
        case 0x07:
          esc = "\\a";
          break;
        case 0x08:
          esc = "\\b";
          break;
        case 0x0c:
          esc = "\\f";
          break;
        case 0x0a:
          esc = "\\n";
          break;
        case 0x0d:
          esc = "\\r";
          break;
        case 0x09:
          esc = "\\t";
          break;
        case 0x0b:
          esc = "\\v";
          break;
        default:
          esc = "\\x" + c.toString(16).padStart(2, "0");
      }
    } else if (c >= 0x80 && (c <= 0xa0 || c === 0xad || (c >= 0x200b && c <= 0x200f) || (c >= 0x2028 && c <= 0x202e) || (c >= 0x2060 && c <= 0x2064) || c === 0xfeff)) {
      esc = "\\u" + c.toString(16).padStart(4, "0");
    } else if (c >= 0xd800 && c <= 0xdfff) {
      // A lone surrogate is not a character; a valid pair is kept.
      const pair = c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff;
      if (pair) i++;
      else esc = "\\ufffd";
    }
    if (esc !== undefined) {
      out += s.slice(from, i) + esc;
      from = i + 1;
    }
  }
  return from === 0 ? s : out + s.slice(from);
}

/** A string quoted as Go's `%q` verb quotes it. */
export function goQuote(s: string): string {
  return `"${goQuoteBody(s)}"`;
}

interface MarshalVertex<V> {
  readonly vertex: V;
  readonly name: string; // escaped
  readonly node: DotNode | null | undefined;
}

interface MarshalGraph<V> {
  readonly name: string; // "" for the root
  readonly attrs: Record<string, string>;
  readonly vertices: MarshalVertex<V>[];
  readonly edges: [MarshalVertex<V>, MarshalVertex<V>][];
  readonly cycles: MarshalVertex<V>[][];
  readonly subgraphs: MarshalGraph<V>[];
}

function marshal<V>(graph: Graph<V>, name: string, options: DotOptions<V>): MarshalGraph<V> {
  const byVertex = new Map<V, MarshalVertex<V>>();
  const mg: MarshalGraph<V> = { name, attrs: {}, vertices: [], edges: [], cycles: [], subgraphs: [] };
  for (const vertex of graph.vertices()) {
    const raw = graph.name(vertex);
    const sub = options.subgraph?.(vertex);
    if (sub) mg.subgraphs.push(marshal(sub, raw, options));
    const escaped = goQuoteBody(raw);
    const mv: MarshalVertex<V> = { vertex, name: escaped, node: options.node ? options.node(vertex, escaped) : {} };
    byVertex.set(vertex, mv);
    mg.vertices.push(mv);
  }
  mg.vertices.sort((a, b) => compareNames(a.name, b.name));
  for (const e of graph.edges()) mg.edges.push([byVertex.get(e.source) as MarshalVertex<V>, byVertex.get(e.target) as MarshalVertex<V>]);
  for (const cycle of stronglyConnected(graph)) {
    if (cycle.length > 1) mg.cycles.push(cycle.map((v) => byVertex.get(v) as MarshalVertex<V>));
  }
  return mg;
}

function attrList(attrs: Readonly<Record<string, string>> | undefined): string[] {
  if (!attrs) return [];
  return Object.keys(attrs)
    .map((k) => `${k} = ${goQuote(attrs[k] as string)}`)
    .sort(compareNames);
}

function withAttrs(line: string, attrs: Readonly<Record<string, string>> | undefined): string {
  const list = attrList(attrs);
  return list.length ? `${line} [${list.join(", ")}]` : line;
}

/** The DOT text of a graph, as `tofu graph` prints it (see the top of this file). */
export function toDot<V>(graph: Graph<V>, options: DotOptions<V> = {}): string {
  const drawCycles = options.drawCycles ?? true;
  const maxDepth = options.maxDepth ?? -1;
  const cluster = maxDepth !== 0;
  const mg = marshal(graph, "", options);
  const lines: string[] = ["digraph {", '\tcompound = "true"', '\tnewrank = "true"', '\tsubgraph "root" {'];
  writeBody(mg, lines, drawCycles);
  const writeSubgraph = (sg: MarshalGraph<V>, depth: number): void => {
    if (depth === 0) return;
    let name = sg.name;
    if (cluster) {
      name = "cluster_" + name;
      sg.attrs["label"] = sg.name;
    }
    lines.push(`\tsubgraph ${goQuote(name)} {`);
    writeBody(sg, lines, drawCycles);
    for (const inner of sg.subgraphs) writeSubgraph(inner, depth - 1);
  };
  for (const sg of mg.subgraphs) writeSubgraph(sg, maxDepth === 0 ? -1 : maxDepth);
  lines.push("}");
  return lines.join("\n") + "\n";
}

function writeBody<V>(g: MarshalGraph<V>, lines: string[], drawCycles: boolean): void {
  const graphName = g.name === "" ? "root" : g.name;
  for (const a of attrList(g.attrs)) lines.push(`\t\t${a}`);
  const hidden = new Set<MarshalVertex<V>>();
  for (const v of g.vertices) {
    if (!v.node) {
      hidden.add(v);
      continue;
    }
    lines.push(withAttrs(`\t\t"[${graphName}] ${v.node.name ?? v.name}"`, v.node.attrs));
  }
  const edgeLines: string[] = [];
  const edgeLine = (s: MarshalVertex<V>, t: MarshalVertex<V>): string => `"[${graphName}] ${s.name}" -> "[${graphName}] ${t.name}"`;
  if (drawCycles) {
    for (const c of g.cycles) {
      for (let i = 0; i < c.length; i++) {
        const s = c[i] as MarshalVertex<V>;
        const t = c[(i + 1) % c.length] as MarshalVertex<V>;
        if (hidden.has(s) || hidden.has(t)) continue;
        edgeLines.push(`${edgeLine(s, t)} [color = "red", penwidth = "2.0"]`);
      }
    }
  }
  for (const [s, t] of g.edges) edgeLines.push(edgeLine(s, t));
  edgeLines.sort(compareNames);
  for (const e of edgeLines) lines.push(`\t\t${e}`);
  lines.push("\t}");
}
