// `terrace graph [-type=plan|plan-refresh-only|plan-destroy|apply] [-plan=FILE] [-draw-cycles]
// [-format=json]`: OpenTofu's command/graph.go. The graph is core's own (buildGraph with the plan
// or apply transformers, over the configuration, the selected workspace's state and, with -plan,
// the saved plan and its configuration), printed in DOT as `tofu graph` prints it: every vertex
// name prefixed "[root] ", resources as boxes, providers as diamonds, root variables as notes, the
// other vertices only through their edges. Without -type the graph is terraform 1.7+'s simplified
// one (graph_resources.ts): resource and data blocks only; -plan implies "apply".
// `-module-depth` and `-verbose` are accepted and ignored, as tofu ignores them.
//
// `-format=json` is Terrace's extension for the browser (docs/cli.md): nodes with their address,
// kind, module and provider instance (and planned action, with -plan), edges, the module tree and
// the provider instances with the resources each serves.
import { readFileSync } from "node:fs";
import path from "node:path";
import { instanceKeyString } from "../addrs/index.js";
import { allConfigs, moduleSourceString, type Config } from "../configs/index.js";
import { buildProviderMap } from "../configs/providermap/index.js";
import { applyTransformers, buildGraph, nodeName, planTransformers, ProviderManager, providersNeeded, type BuildContext, type GraphNode } from "../core/index.js";
import { toDot, type Graph } from "../graph/index.js";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import { readPlanFile, type Plan } from "../plans/index.js";
import { NotDeposed, State } from "../states/index.js";
import { configFromPlanFile, readSavedPlan } from "./saved_plan.js";
import { resourceGraph, resourceGraphDot } from "./graph_resources.js";
import { parseCommandFlags } from "./args.js";
import type { Command } from "./io.js";
import { TOFU_VERSION, providerFactory } from "./plan.js";
import { View } from "./view.js";
import { currentWorkspace } from "./workspace.js";
import { Meta, VAR_FLAGS } from "./meta.js";

const GRAPH_HELP = `Usage: terrace [global options] graph [options]

  Produces a representation of the dependency graph between different
  objects in the current configuration and state.

  The graph is presented in the DOT language. The typical program that can
  read this format is GraphViz, but many web services are also available
  to read this format.

Options:

  -plan=tfplan     Render graph using the specified plan file instead of the
                   configuration in the current directory.

  -draw-cycles     Highlight any cycles in the graph with colored edges.
                   This helps when diagnosing cycle errors.

  -type=plan       Type of graph to output. Can be: plan, plan-refresh-only,
                   plan-destroy, or apply. By default only the resources and
                   the dependency order between them are shown; with
                   -plan=... the default is "apply".

  -module-depth=n  (deprecated) In prior versions of OpenTofu, specified the
                   depth of modules to show in the output.

  -format=json     (Terrace) Print the graph as JSON for programs instead of DOT.

  -var 'foo=bar'     Set a value for one of the input variables in the root
                     module of the configuration. Use this option more than
                     once to set more than one variable.

  -var-file=filename Load variable values from the given file, in addition
                     to the default files terraform.tfvars and *.auto.tfvars.
                     Use this option more than once to include more than one
                     variables file.
`;

type GraphType = "plan" | "plan-refresh-only" | "plan-destroy" | "apply";

// ---------------------------------------------------------------------------------------------
// What each vertex looks like

/** The vertex's address: its name without the "(expand)"-style suffix. */
function nodeAddress(n: GraphNode): string {
  return nodeName(n).replace(/ \((expand|orphan|destroy|destroy deposed [0-9a-f]+)\)$/, "");
}

function isResourceNode(n: GraphNode): boolean {
  switch (n.kind) {
    case "resource":
    case "orphanResource":
    case "planInstance":
    case "planOrphan":
    case "applyInstance":
    case "destroyInstance":
    case "forgetInstance":
      return true;
    default:
      return false;
  }
}

/** GraphNodeDotter: which vertices get a node line, and how they look. */
function dotNode(n: GraphNode): { attrs: Record<string, string> } | undefined {
  if (isResourceNode(n)) return { attrs: { label: nodeAddress(n), shape: "box" } };
  if (n.kind === "provider") return { attrs: { label: nodeName(n), shape: "diamond" } };
  if (n.kind === "variable" && n.module.length === 0) return { attrs: { label: nodeName(n), shape: "note" } };
  return undefined;
}

function moduleString(module: readonly string[]): string {
  return module.map((m) => `module.${m}`).join(".");
}

/** The module instance (or static module path) a vertex belongs to; new node kinds fall in by shape. */
function nodeModuleString(n: GraphNode): string {
  if ("change" in n) return n.change.addr.module.toString();
  if ("addr" in n && n.kind !== "provider") return n.addr.module.toString();
  return "module" in n ? moduleString(n.module) : "";
}

// ---------------------------------------------------------------------------------------------
// JSON

export interface GraphJSONDocument {
  format_version: "1.0";
  nodes: Array<{ id: string; address: string; kind: GraphNode["kind"]; module: string; provider_instance: string | null; action?: string }>;
  edges: Array<{ from: string; to: string }>;
  modules: Array<{ address: string; name: string; parent: string | null; source: string | null }>;
  provider_instances: Array<{ address: string; key: string | null; resources: string[] }>;
}

function providerOf(g: Graph<GraphNode>, n: GraphNode): string | null {
  if ("change" in n) {
    const c = n.change;
    return c.providerKey.kind === "NoKey" ? c.providerAddr.toString() : `${c.providerAddr.toString()}${instanceKeyString(c.providerKey)}`;
  }
  if (!isResourceNode(n)) return null;
  for (const t of g.downEdges(n)) if (t.kind === "provider") return nodeName(t);
  return null;
}

function actionOf(n: GraphNode, plan: Plan | undefined): string | undefined {
  if ("change" in n) return n.change.change.action;
  if (!plan || !isResourceNode(n)) return undefined;
  const addr = nodeAddress(n);
  const c = plan.changes.resources.find((r) => r.addr.toString() === addr && r.deposedKey === NotDeposed);
  return c?.change.action;
}

export function graphJSON(g: Graph<GraphNode>, config: Config, plan: Plan | undefined): GraphJSONDocument {
  const vertices = [...g.vertices()].sort((a, b) => (nodeName(a) < nodeName(b) ? -1 : nodeName(a) > nodeName(b) ? 1 : 0));
  const nodes = vertices.map((n) => {
    const action = actionOf(n, plan);
    const out: GraphJSONDocument["nodes"][number] = { id: nodeName(n), address: nodeAddress(n), kind: n.kind, module: nodeModuleString(n), provider_instance: providerOf(g, n) };
    if (action !== undefined) out.action = action;
    return out;
  });
  const edges = g
    .edges()
    .map((e) => ({ from: nodeName(e.source), to: nodeName(e.target) }))
    .sort((a, b) => (a.from + "\u0000" + a.to < b.from + "\u0000" + b.to ? -1 : 1));
  const modules = allConfigs(config)
    .filter((c) => c.path.length > 0)
    .map((c) => ({
      address: moduleString(c.path),
      name: c.path[c.path.length - 1] as string,
      parent: c.path.length === 1 ? null : moduleString(c.path.slice(0, -1)),
      source: c.sourceAddr ? moduleSourceString(c.sourceAddr) : null,
    }));
  const instances = new Map<string, { address: string; key: string | null; resources: Set<string> }>();
  const instance = (address: string, key: string | null) => {
    const k = `${address}|${key ?? ""}`;
    let e = instances.get(k);
    if (!e) instances.set(k, (e = { address, key, resources: new Set() }));
    return e;
  };
  if (plan) {
    for (const c of plan.changes.resources) {
      instance(c.providerAddr.toString(), c.providerKey.kind === "NoKey" ? null : instanceKeyString(c.providerKey)).resources.add(c.addr.containingResource().toString());
    }
  } else {
    const map = buildProviderMap(config);
    for (const pc of map.configurations) for (const key of pc.instanceKeys ?? [null]) instance(pc.address, key);
    for (const r of map.references) {
      if (r.kind !== "resource" || r.configuration === null) continue;
      const pc = map.configurations.find((c) => c.address === r.configuration);
      for (const key of pc?.instanceKeys ?? [null]) instance(r.configuration, key).resources.add(r.address);
    }
  }
  const provider_instances = [...instances.values()]
    .map((e) => ({ address: e.address, key: e.key, resources: [...e.resources].sort() }))
    .sort((a, b) => (a.address === b.address ? ((a.key ?? "") < (b.key ?? "") ? -1 : 1) : a.address < b.address ? -1 : 1));
  return { format_version: "1.0", nodes, edges, modules, provider_instances };
}

// ---------------------------------------------------------------------------------------------
// The command

export const graphCommand: Command = async (args, io) => {
  const view = new View(io, !args.includes("-no-color"));
  const p = parseCommandFlags(args, { bool: ["draw-cycles", "verbose", "no-color"], string: ["type", "module-depth", "plan", "format"], multi: VAR_FLAGS });
  if (typeof p === "string") {
    view.eprintln(`[red]Error parsing command-line flags: ${p}\n[reset]`);
    return 1;
  }
  if (p.bools.get("help")) {
    io.stdout.write(GRAPH_HELP);
    return 0;
  }
  const depth = p.strings.get("module-depth");
  if (depth !== undefined && !/^[-+]?\d+$/.test(depth)) {
    view.eprintln(`[red]Error parsing command-line flags: invalid value ${JSON.stringify(depth)} for flag -module-depth: parse error\n[reset]`);
    return 1;
  }
  const format = p.strings.get("format") ?? "dot";
  if (format !== "dot" && format !== "json") {
    view.diagnostics([errorDiag("Unsupported graph format", `The -format=... argument must be either "dot" or "json".`)]);
    return 1;
  }
  if (p.positional.length > 0) {
    view.diagnostics([errorDiag("Too many command line arguments", "To specify a working directory for the graph, use the global -chdir flag.")]);
    return 1;
  }
  const workingDir = path.resolve(io.cwd);
  const meta = Meta.fromFlags(io, view, p);

  let plan: Plan | undefined;
  let config: Config | undefined;
  const diagnostics: Diagnostic[] = [];
  const planPath = p.strings.get("plan");
  if (planPath !== undefined && planPath !== "") {
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(readFileSync(path.resolve(workingDir, planPath)));
    } catch (e) {
      view.eprintln(`[red]Failed to load ${JSON.stringify(planPath)} as a plan file: ${e instanceof Error ? e.message : String(e)}[reset]`);
      return 1;
    }
    const enc = await meta.encryption();
    if (!enc.encryption) {
      view.diagnostics(enc.diagnostics);
      return 1;
    }
    const read = await readSavedPlan(io, bytes, enc.encryption.plan);
    if (!read.ok) {
      view.diagnostics([errorDiag("Failed to read plan from plan file", `Cannot read the plan from the given plan file: ${read.diagnostics.map((d) => d.detail ?? d.summary).join("; ")}.`)]);
      return 1;
    }
    const loaded = await configFromPlanFile(read, workingDir, currentWorkspace(io).name);
    diagnostics.push(...loaded.diagnostics);
    plan = loaded.plan;
    config = loaded.config;
  } else {
    // The backend first, then the configuration (the local run); unset variables are allowed
    // there, but what static evaluation needs must be known.
    const b = await meta.backend();
    if (!b.backend) {
      view.diagnostics(b.diagnostics);
      return 1;
    }
    const loaded = await meta.loadConfig();
    diagnostics.push(...loaded.diagnostics);
    config = loaded.config;
  }
  if (hasErrors(diagnostics) || !config) {
    view.diagnostics(diagnostics);
    return 1;
  }

  // Without -type (and without -plan, which implies "apply"), only the resources and the order
  // between them, as terraform 1.7+ draws it: the full operation graphs are for debugging.
  const resourcesOnly = p.strings.get("type") === undefined && !plan;
  const typeStr = p.strings.get("type") ?? (plan ? "apply" : "plan");
  if (typeStr === "eval" || typeStr === "validate") {
    view.diagnostics([errorDiag("Graph type no longer available", `The graph type ${JSON.stringify(typeStr)} is no longer available. Use -type=plan instead to get a similar result.`)]);
    return 1;
  }
  if (!["plan", "plan-refresh-only", "plan-destroy", "apply"].includes(typeStr)) {
    view.diagnostics([errorDiag("Unsupported graph type", 'The -type=... argument must be either "plan", "plan-refresh-only", "plan-destroy", or "apply".')]);
    return 1;
  }
  const type = typeStr as GraphType;

  let state: State;
  if (plan) state = plan.priorState;
  else {
    const r = await meta.readState();
    if (!r.read) {
      view.diagnostics(r.diagnostics);
      return 1;
    }
    state = r.read.state;
  }

  const providers = new ProviderManager(providerFactory(workingDir, io.env), TOFU_VERSION);
  try {
    const sd = await providers.loadSchemas(providersNeeded(config, state, plan?.changes.resources.map((c) => c.providerAddr.provider)));
    if (hasErrors(sd)) {
      view.diagnostics(sd);
      return 1;
    }
    let b: BuildContext;
    let built;
    if (type === "apply") {
      // As tofu, an apply graph without a plan is drawn for an empty plan.
      const destroy = plan?.uiMode === "destroy";
      b = { config, state, providers, destroy, changes: plan?.changes.resources ?? [] };
      built = buildGraph(b, applyTransformers(destroy));
    } else {
      const destroy = type === "plan-destroy";
      b = { config, state, providers, destroy, changes: [] };
      built = buildGraph(b, planTransformers(destroy));
    }
    // A cycle is what -draw-cycles is for: the graph is still printed.
    const errors = built.diagnostics.filter((d) => d.severity === "error" && !d.summary.startsWith("Cycle:") && d.summary !== "Self-referential block");
    if (errors.length > 0) {
      view.diagnostics(errors);
      return 1;
    }
    if (resourcesOnly) {
      const rg = resourceGraph(built.graph);
      if (format === "json") {
        const full = graphJSON(built.graph, config, plan);
        const providerOfBlock = new Map(full.nodes.filter((n) => n.kind === "resource").map((n) => [n.address, n.provider_instance]));
        const nodes = rg.nodes.map((n) => ({ id: n.address, address: n.address, kind: "resource" as const, module: n.module, provider_instance: providerOfBlock.get(n.address) ?? null }));
        io.stdout.write(`${JSON.stringify({ ...full, nodes, edges: rg.edges }, null, 2)}\n`);
      } else io.stdout.write(resourceGraphDot(rg));
      return 0;
    }
    if (format === "json") {
      io.stdout.write(`${JSON.stringify(graphJSON(built.graph, config, plan), null, 2)}\n`);
      return 0;
    }
    const dot = toDot(built.graph, { node: (n) => dotNode(n), drawCycles: p.bools.get("draw-cycles") ?? false });
    // Ui.Output adds a newline after the text, which already ends with one.
    io.stdout.write(`${dot}\n`);
    return 0;
  } finally {
    await providers.close();
  }
};
