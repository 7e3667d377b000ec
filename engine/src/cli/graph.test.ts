import { describe, expect, it } from "vitest";
import { runCommand, workDir } from "./clitest.testkit.js";
import { graphCommand, type GraphJSONDocument } from "./graph.js";
import { planCommand } from "./plan.js";

const MAIN = `variable "v" {
  default = "x"
}

resource "terraform_data" "a" {
  input = var.v
}

resource "terraform_data" "b" {
  count = 2
  input = terraform_data.a.output
}

module "m" {
  source = "./m"
}
`;
const MOD = `resource "terraform_data" "x" {
  input = "x"
}
`;
const P = '"[root] provider[\\"terraform.io/builtin/terraform\\"]"';

describe("terrace graph", () => {
  it("prints the plan graph in tofu's DOT form", async () => {
    const { dir } = workDir({ "main.tf": MAIN, "m/main.tf": MOD });
    const r = await runCommand(graphCommand, ["-type=plan"], dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines.slice(0, 4)).toEqual(["digraph {", '\tcompound = "true"', '\tnewrank = "true"', '\tsubgraph "root" {']);
    expect(lines).toContain('\t\t"[root] terraform_data.a (expand)" [label = "terraform_data.a", shape = "box"]');
    expect(lines).toContain('\t\t"[root] module.m.terraform_data.x (expand)" [label = "module.m.terraform_data.x", shape = "box"]');
    expect(lines).toContain(`\t\t${P} [label = "provider[\\"terraform.io/builtin/terraform\\"]", shape = "diamond"]`);
    expect(lines).toContain('\t\t"[root] var.v" [label = "var.v", shape = "note"]');
    expect(lines).toContain('\t\t"[root] terraform_data.b (expand)" -> "[root] terraform_data.a (expand)"');
    expect(lines).toContain(`\t\t"[root] terraform_data.a (expand)" -> ${P}`);
    expect(lines).toContain('\t\t"[root] terraform_data.a (expand)" -> "[root] var.v"');
    expect(r.stdout.endsWith("\t}\n}\n\n")).toBe(true);
  });

  it("draws only resources by default, as terraform 1.11 does (its output recorded here)", async () => {
    const { dir } = workDir({
      "main.tf": [
        'resource "terraform_data" "a" {}',
        'resource "terraform_data" "b" { input = terraform_data.a.id }',
        "locals { x = terraform_data.b.id }",
        'resource "terraform_data" "c" {\n  count = 2\n  input = local.x\n}',
        'module "m" {\n  source = "./m"\n  v = terraform_data.c[0].id\n}',
        'data "terraform_remote_state" "r" {\n  backend = "local"\n  config = { path = "x" }\n}',
        'resource "terraform_data" "d" { input = [terraform_data.a.id, terraform_data.b.id, data.terraform_remote_state.r.outputs] }',
        'resource "terraform_data" "e" { input = module.m.o }',
        "",
      ].join("\n"),
      "m/main.tf": 'variable "v" {}\nresource "terraform_data" "inner" { input = var.v }\nmodule "n" {\n  source = "./n"\n}\noutput "o" { value = module.n.x }\n',
      "m/n/main.tf": 'resource "terraform_data" "deep" {}\noutput "x" { value = terraform_data.deep.id }\n',
    });
    const r = await runCommand(graphCommand, [], dir);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      [
        "digraph G {",
        '  rankdir = "RL";',
        '  node [shape = rect, fontname = "sans-serif"];',
        '  "data.terraform_remote_state.r" [label="data.terraform_remote_state.r"];',
        '  "terraform_data.a" [label="terraform_data.a"];',
        '  "terraform_data.b" [label="terraform_data.b"];',
        '  "terraform_data.c" [label="terraform_data.c"];',
        '  "terraform_data.d" [label="terraform_data.d"];',
        '  "terraform_data.e" [label="terraform_data.e"];',
        '  subgraph "cluster_module.m" {',
        '    label = "module.m"',
        '    fontname = "sans-serif"',
        '    "module.m.terraform_data.inner" [label="terraform_data.inner"];',
        "  }",
        '  subgraph "cluster_module.m.module.n" {',
        '    label = "module.m.module.n"',
        '    fontname = "sans-serif"',
        '    "module.m.module.n.terraform_data.deep" [label="terraform_data.deep"];',
        "  }",
        '  "terraform_data.b" -> "terraform_data.a";',
        '  "terraform_data.c" -> "terraform_data.b";',
        '  "terraform_data.d" -> "data.terraform_remote_state.r";',
        '  "terraform_data.d" -> "terraform_data.b";',
        '  "terraform_data.e" -> "module.m.module.n.terraform_data.deep";',
        '  "module.m.terraform_data.inner" -> "terraform_data.c";',
        "}",
        "",
      ].join("\n"),
    );
    const j = JSON.parse((await runCommand(graphCommand, ["-format=json"], dir)).stdout) as GraphJSONDocument;
    expect(j.nodes.map((n) => n.id)).toContain("module.m.module.n.terraform_data.deep");
    expect(j.edges).toContainEqual({ from: "terraform_data.e", to: "module.m.module.n.terraform_data.deep" });
    expect(j.nodes.find((n) => n.id === "terraform_data.a")?.provider_instance).toBe('provider["terraform.io/builtin/terraform"]');
  });

  it("draws the apply graph of a saved plan, and rejects unknown types", async () => {
    const { dir } = workDir({ "main.tf": MAIN, "m/main.tf": MOD });
    expect((await runCommand(planCommand, ["-no-color", "-out=p.tfplan"], dir)).code).toBe(0);
    const r = await runCommand(graphCommand, ["-plan=p.tfplan"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('\t\t"[root] terraform_data.b[1]" [label = "terraform_data.b[1]", shape = "box"]');
    expect(r.stdout).toContain('\t\t"[root] terraform_data.b[1]" -> "[root] terraform_data.a"');
    const bad = await runCommand(graphCommand, ["-no-color", "-type=eval"], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Graph type no longer available");
    expect((await runCommand(graphCommand, ["-no-color", "-type=nope"], dir)).stderr).toContain("Unsupported graph type");
  });

  it("prints JSON for the browser: nodes, edges, modules, provider instances, planned actions", async () => {
    const { dir } = workDir({ "main.tf": MAIN, "m/main.tf": MOD });
    const r = await runCommand(graphCommand, ["-format=json", "-type=plan"], dir);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as GraphJSONDocument;
    expect(doc.format_version).toBe("1.0");
    const x = doc.nodes.find((n) => n.id === "module.m.terraform_data.x (expand)");
    expect(x).toEqual({ id: "module.m.terraform_data.x (expand)", address: "module.m.terraform_data.x", kind: "resource", module: "module.m", provider_instance: 'provider["terraform.io/builtin/terraform"]' });
    expect(doc.edges).toContainEqual({ from: "terraform_data.b (expand)", to: "terraform_data.a (expand)" });
    expect(doc.modules).toEqual([{ address: "module.m", name: "m", parent: null, source: "./m" }]);
    expect(doc.provider_instances).toEqual([
      { address: 'provider["terraform.io/builtin/terraform"]', key: null, resources: ["module.m.terraform_data.x", "terraform_data.a", "terraform_data.b"] },
    ]);
    expect((await runCommand(planCommand, ["-no-color", "-out=p.tfplan"], dir)).code).toBe(0);
    const applied = JSON.parse((await runCommand(graphCommand, ["-format=json", "-plan=p.tfplan"], dir)).stdout) as GraphJSONDocument;
    expect(applied.nodes.find((n) => n.id === "terraform_data.a")?.action).toBe("Create");
  });
});
