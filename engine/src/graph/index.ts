// The public surface of the graph module: OpenTofu's internal/dag in TypeScript. A directed graph
// of any vertex type, the acyclic graph's algorithms (validation, Tarjan's components, topological
// orders, traversals, transitive reduction), the parallel walk the engine's plan and apply run on,
// and DOT / JSON output. Knows nothing of the rest of the engine; browser-safe (no Node APIs).
export { Graph, vertexName, compareNames, type Edge, type GraphOptions } from "./graph.js";
export {
  AcyclicGraph,
  GraphCycleError,
  type GraphProblem,
  type RootResult,
  type TraversalFunc,
  type TraversalOptions,
} from "./dag.js";
export { stronglyConnected } from "./tarjan.js";
export {
  walk,
  type VertexOutcome,
  type WalkCallback,
  type WalkContext,
  type WalkOptions,
  type WalkProgress,
  type WalkResult,
} from "./walk.js";
export { toDot, goQuote, type DotNode, type DotOptions } from "./dot.js";
export { toGraphJSON, type GraphJSON, type GraphJSONEdge, type GraphJSONNode, type GraphJSONOptions } from "./json.js";
