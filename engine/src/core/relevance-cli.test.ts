// The plan's relevant_attributes (relevantResourceAttrsForPlan, which decides what drift the plan
// view shows) through the CLI: references followed across module calls (a child's variable to
// the caller's argument, a module output to the child's output expression), and references
// without an instance key reported under the resource's own address, whole traversals kept, data
// resources counted, references into a resource followed only through the argument they name,
// and child module outputs with a value as starting points (not in destroy plans). The expected
// sets are terraform 1.11's `show -json` answers for the same configurations and steps.
import { describe, expect, it } from "vitest";
import { applyCommand } from "../cli/apply.js";
import { runCommand, workDir } from "../cli/clitest.testkit.js";
import { initCommand } from "../cli/init.js";
import { planCommand } from "../cli/plan.js";
import { showCommand } from "../cli/show.js";

async function relevantAfterChange(files: Record<string, string>, planArgs: string[] = ["-var", "v=2"]): Promise<string[]> {
  const { dir } = workDir(files);
  expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
  expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir)).code).toBe(0);
  expect((await runCommand(planCommand, ["-no-color", ...planArgs, "-out=p.tfplan"], dir)).code).toBe(0);
  const show = await runCommand(showCommand, ["-json", "p.tfplan"], dir);
  const doc = JSON.parse(show.stdout) as { relevant_attributes?: { resource: string; attribute: unknown[] }[] };
  return (doc.relevant_attributes ?? []).map((ra) => `${ra.resource} ${JSON.stringify(ra.attribute)}`).sort();
}

describe("relevant_attributes", () => {
  it("follows references through module variables and module outputs", async () => {
    const got = await relevantAfterChange({
      "main.tf": `variable "v" {
  default = "1"
}
resource "terraform_data" "src" {
  input = var.v
}
module "child" {
  source = "./child"
  x      = terraform_data.src.output
}
output "o" {
  value = module.child.y
}
`,
      "child/main.tf": `variable "x" {}
resource "terraform_data" "b" {
  input = var.x
}
output "y" {
  value = terraform_data.b.output
}
`,
    });
    expect(got).toEqual(['module.child.terraform_data.b ["output"]', 'terraform_data.src ["output"]']);
  });

  it("reports a reference without an instance key under the resource's address", async () => {
    const got = await relevantAfterChange({
      "main.tf": `variable "v" {
  default = "1"
}
resource "terraform_data" "c" {
  count = 2
  input = var.v
}
resource "terraform_data" "u" {
  input = terraform_data.c[*].output
}
resource "terraform_data" "w" {
  input = terraform_data.c[0].output
}
`,
    });
    expect(got).toEqual(["terraform_data.c []", 'terraform_data.c[0] ["output"]']);
  });

  it("keeps each reference's whole traversal, and follows a reference into a resource only through the argument it names", async () => {
    const got = await relevantAfterChange({
      "main.tf": `variable "v" {
  default = "1"
}
resource "terraform_data" "a" {
  input = { x = { y = var.v }, l = [1, var.v] }
}
resource "terraform_data" "b" {
  input = [terraform_data.a.output.x.y, terraform_data.a.output["l"][1]]
}
output "o" {
  value = terraform_data.a.input.x
}
resource "terraform_data" "other" {
  input = "o"
}
resource "terraform_data" "mid" {
  input            = "m"
  triggers_replace = terraform_data.other.output
}
resource "terraform_data" "top" {
  input = "\${terraform_data.mid.input}-\${var.v}"
}
`,
    });
    // mid is unchanged and top reads only its input, so mid's triggers_replace (other) is not followed.
    expect(got).toEqual(['terraform_data.a ["input","x"]', 'terraform_data.a ["output","l",1]', 'terraform_data.a ["output","x","y"]', 'terraform_data.mid ["input"]']);
  });

  it("counts references to data resources and follows their configuration", async () => {
    const remote = '{"version":4,"terraform_version":"1.11.4","serial":1,"lineage":"x","outputs":{"v":{"value":"a","type":"string"}},"resources":[]}';
    const got = await relevantAfterChange(
      {
        "main.tf": `variable "f" {
  default = "one.tfstate"
}
resource "terraform_data" "p" {
  input = var.f
}
data "terraform_remote_state" "s" {
  backend = "local"
  config  = { path = terraform_data.p.output }
}
output "v" {
  value = data.terraform_remote_state.s.outputs.v
}
`,
        "one.tfstate": remote,
        "two.tfstate": remote,
      },
      ["-var", "f=two.tfstate"],
    );
    expect(got).toEqual(['data.terraform_remote_state.s ["outputs","v"]', 'terraform_data.p ["output"]']);
  });

  describe("starting from child module outputs, which a plan records as created when they have a value", () => {
    const files = {
      "main.tf": `variable "v" {
  default = "1"
}
resource "terraform_data" "src" {
  input = var.v
}
resource "terraform_data" "d" {
  input = terraform_data.src.output
}
module "child" {
  source = "./child"
}
module "nulls" {
  source = "./nulls"
}
`,
      "child/main.tf": `resource "terraform_data" "b" {
  input = "b"
}
resource "terraform_data" "c" {
  input = "c"
}
output "y" {
  value = terraform_data.b.output
}
locals {
  l = terraform_data.c.id
}
output "z" {
  value = local.l
}
`,
      "nulls/main.tf": `resource "terraform_data" "n" {
  input = "n"
}
output "n" {
  value = terraform_data.n.output == "never" ? "x" : null
}
`,
    };
    const fromChildOutputs = ['module.child.terraform_data.b ["output"]', 'module.child.terraform_data.c ["id"]'];

    it("in a plan with changes, and in one without: a null output adds nothing", async () => {
      expect(await relevantAfterChange(files)).toEqual([...fromChildOutputs, 'terraform_data.src ["output"]'].sort());
      expect(await relevantAfterChange(files, [])).toEqual(fromChildOutputs);
    });

    it("not in a destroy plan, where only the deleted resources' references count", async () => {
      expect(await relevantAfterChange(files, ["-destroy"])).toEqual(['terraform_data.src ["output"]']);
    });
  });
});
