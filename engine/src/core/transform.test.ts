import { describe, expect, it } from "vitest";
import { State } from "../states/index.js";
import { applyTransformers, buildGraph, planTransformers } from "./builder.js";
import { builtinFactory, loadConfig, planAndApply } from "./core.testkit.js";
import { nodeName } from "./nodes.js";
import { ProviderManager } from "./providers.js";
import {
  configResourceTransformer,
  dependsOnTransformer,
  moduleCallTransformer,
  moduleExpansionTransformer,
  namedValuesTransformer,
  providerTransformer,
  referenceTransformer,
  type BuildContext,
  type Transformer,
} from "./transform.js";

const PROVIDER = 'provider["terraform.io/builtin/terraform"]';

async function context(files: Record<string, string>, state = new State()): Promise<BuildContext> {
  const config = loadConfig(files);
  const providers = new ProviderManager(builtinFactory(), "1.11.0");
  const p = [...config.module.managedResources.values()][0]?.provider;
  if (p) await providers.loadSchemas([p]);
  return { config, state, providers, destroy: false, changes: [] };
}

/** Edges as "a -> b" (a depends on b), sorted. */
function edges(b: BuildContext, ts: Transformer[]): string[] {
  const { graph } = buildGraph(b, ts);
  return graph
    .edges()
    .map((e) => `${nodeName(e.source)} -> ${nodeName(e.target)}`)
    .sort();
}

const FILES = {
  "main.tf": `
variable "v" {}
locals {
  l = "\${var.v}-x"
}
resource "terraform_data" "a" {
  input = local.l
}
resource "terraform_data" "b" {
  depends_on = [terraform_data.a]
}
module "m" {
  source = "./m"
  in     = terraform_data.a.output
}
output "o" {
  value = module.m.out
}
`,
  "m/main.tf": 'variable "in" {}\noutput "out" {\n  value = var.in\n}\n',
};

describe("transformers", () => {
  it("namedValuesTransformer adds variables, locals and outputs of every module", async () => {
    const b = await context(FILES);
    const { graph } = buildGraph(b, [namedValuesTransformer(true)]);
    expect(graph.vertices().map(nodeName).sort()).toEqual(["local.l", "module.m.output.out", "module.m.var.in", "output.o", "var.v"]);
  });

  it("configResourceTransformer and moduleCallTransformer add expand nodes", async () => {
    const b = await context(FILES);
    const { graph } = buildGraph(b, [configResourceTransformer, moduleCallTransformer]);
    expect(graph.vertices().map(nodeName).sort()).toEqual(["module.m (expand)", "terraform_data.a (expand)", "terraform_data.b (expand)"]);
  });

  it("providerTransformer connects resources to their provider configuration", async () => {
    const b = await context(FILES);
    expect(edges(b, [configResourceTransformer, providerTransformer])).toEqual([`terraform_data.a (expand) -> ${PROVIDER}`, `terraform_data.b (expand) -> ${PROVIDER}`]);
  });

  it("referenceTransformer connects expressions to what they refer to, across module boundaries", async () => {
    const b = await context(FILES);
    expect(edges(b, [namedValuesTransformer(true), moduleCallTransformer, configResourceTransformer, referenceTransformer])).toEqual([
      "local.l -> var.v",
      "module.m.output.out -> module.m.var.in",
      "module.m.var.in -> terraform_data.a (expand)",
      "output.o -> module.m (expand)",
      "output.o -> module.m.output.out",
      "terraform_data.a (expand) -> local.l",
    ]);
  });

  it("dependsOnTransformer adds depends_on edges", async () => {
    const b = await context(FILES);
    expect(edges(b, [configResourceTransformer, dependsOnTransformer])).toEqual(["terraform_data.b (expand) -> terraform_data.a (expand)"]);
  });

  it("moduleExpansionTransformer makes a module's objects wait for its expansion", async () => {
    const b = await context(FILES);
    expect(edges(b, [namedValuesTransformer(true), moduleCallTransformer, moduleExpansionTransformer])).toEqual([
      "module.m.output.out -> module.m (expand)",
      "module.m.var.in -> module.m (expand)",
    ]);
  });

  it("the plan graph has no cycle and the apply graph orders destroys before their dependencies", async () => {
    const files = { "main.tf": 'resource "terraform_data" "a" {}\nresource "terraform_data" "b" {\n  input = terraform_data.a.id\n}\n' };
    const b = await context(files);
    expect(buildGraph(b, planTransformers(false)).diagnostics).toEqual([]);
    const applied = await planAndApply(files);
    const destroy = await planAndApply(files, applied.state, { destroy: true });
    const ab: BuildContext = { ...b, state: destroy.plan.priorState, destroy: true, changes: destroy.plan.changes.resources };
    expect(edges(ab, applyTransformers(true)).filter((e) => e.includes("(destroy)") && !e.includes("provider"))).toEqual([
      "terraform_data.a (destroy) -> terraform_data.b (destroy)",
    ]);
  });
});
