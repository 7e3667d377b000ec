// Graph builders (OpenTofu's PlanGraphBuilder and ApplyGraphBuilder): a list of transformers run
// in order over an empty graph, then a check for cycles, reported as OpenTofu reports them
// ("Cycle: a, b").
import type { Diagnostic } from "../hcl/index.js";
import { AcyclicGraph } from "../graph/index.js";
import { destroyEphemeralResourceTransformer, pruneUnusedForDestroyTransformer } from "./ephemeral_graph.js";
import { nodeName, type GraphNode } from "./nodes.js";
import { providerFunctionTransformer } from "./provider_function_graph.js";
import {
  applyExpansionTransformer,
  cbdEdgeTransformer,
  checkTransformer,
  configResourceTransformer,
  dependsOnTransformer,
  destroyEdgeTransformer,
  ephemeralCloseTransformer,
  diffTransformer,
  moduleCallTransformer,
  moduleExpansionTransformer,
  namedValuesTransformer,
  orphanResourceTransformer,
  providerTransformer,
  referenceTransformer,
  removedBlocksTransformer,
  targetingTransformer,
  type BuildContext,
  type Graph,
  type Transformer,
} from "./transform.js";

export function newGraph(): Graph {
  return new AcyclicGraph<GraphNode>({ key: nodeName, name: nodeName });
}

export function buildGraph(b: BuildContext, transformers: readonly Transformer[]): { graph: Graph; diagnostics: Diagnostic[] } {
  const graph = newGraph();
  const diagnostics: Diagnostic[] = [];
  for (const t of transformers) diagnostics.push(...t(graph, b));
  diagnostics.push(...cycleDiagnostics(graph));
  return { graph, diagnostics };
}

export function cycleDiagnostics(g: Graph): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const p of g.validate()) {
    if (p.kind === "cycle") out.push({ severity: "error", summary: `Cycle: ${p.vertices.map(cycleMemberName).join(", ")}`, detail: "" });
    else if (p.kind === "self-reference") out.push({ severity: "error", summary: `Self-referential block`, detail: `${nodeName(p.vertex)} refers to itself.` });
  }
  return out;
}

/**
 * A node as OpenTofu's graph names it in a cycle: locals, outputs and module variables are
 * "(expand)" nodes there (one per module, expanded into instances later); a root variable is not.
 */
function cycleMemberName(n: GraphNode): string {
  const name = nodeName(n);
  if (n.kind === "local" || n.kind === "output" || (n.kind === "variable" && n.module.length > 0)) return `${name} (expand)`;
  return name;
}

/** The plan graph: every configuration object, orphans from state, providers, references. */
export function planTransformers(destroy: boolean): Transformer[] {
  if (destroy) {
    return [
      // Child modules' outputs: what a provider configuration may be made from.
      namedValuesTransformer(false, true),
      moduleCallTransformer,
      orphanResourceTransformer,
      destroyEphemeralResourceTransformer,
      providerTransformer,
      providerFunctionTransformer,
      moduleExpansionTransformer,
      referenceTransformer,
      pruneUnusedForDestroyTransformer,
      ephemeralCloseTransformer,
      targetingTransformer,
    ];
  }
  return [
    removedBlocksTransformer,
    namedValuesTransformer(true),
    moduleCallTransformer,
    configResourceTransformer,
    checkTransformer,
    orphanResourceTransformer,
    providerTransformer,
    providerFunctionTransformer,
    moduleExpansionTransformer,
    referenceTransformer,
    dependsOnTransformer,
    ephemeralCloseTransformer,
    targetingTransformer,
  ];
}

/** The apply graph: a node per change, the objects their expressions need, destroy ordering. */
export function applyTransformers(destroy: boolean): Transformer[] {
  return [
    namedValuesTransformer(!destroy, true),
    moduleCallTransformer,
    ...(destroy ? [destroyEphemeralResourceTransformer] : [configResourceTransformer, checkTransformer]),
    diffTransformer,
    providerTransformer,
    providerFunctionTransformer,
    moduleExpansionTransformer,
    applyExpansionTransformer,
    referenceTransformer,
    dependsOnTransformer,
    destroyEdgeTransformer,
    cbdEdgeTransformer,
    ...(destroy ? [pruneUnusedForDestroyTransformer] : []),
    ephemeralCloseTransformer,
    targetingTransformer,
  ];
}
