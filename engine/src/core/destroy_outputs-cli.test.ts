// A provider configured from a child module's output, through a destroy: the output is evaluated
// from the objects the destroy is about to remove, as OpenTofu's destroy reads its refreshed prior
// state (the common `provider "kubernetes" { host = module.cluster.endpoint }` shape). The bundled
// `sim` provider runs as a real plugin and refuses an unknown region, so an unknown output fails
// the destroy. terraform 1.11 destroys the same configuration (checked by hand through
// dev_overrides).
import path from "node:path";
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { applyCommand } from "../cli/apply.js";
import { runCommand, useProvidersFromSource, workDir, writeFiles } from "../cli/clitest.testkit.js";
import { initCommand } from "../cli/init.js";
import { planCommand } from "../cli/plan.js";

describe("destroy with a provider configured from a module output", () => {
  useProvidersFromSource();

  it("plans and applies the destroy with the output's value from state", { timeout: 120_000 }, async () => {
    const { dir } = workDir();
    const cloud = path.join(dir, "cloud");
    writeFiles(dir, {
      "main.tf": `terraform {
  required_providers {
    sim = { source = "terrace/sim" }
  }
}

module "cfg" {
  source = "./cfg"
}

provider "sim" {
  region   = module.cfg.regions[1]
  data_dir = ${JSON.stringify(cloud)}
}

resource "sim_bucket" "logs" {
  name = "logs"
}
`,
      // A counted resource: a destroy expands no resources, so its value comes from the state's instances.
      "cfg/main.tf": `resource "terraform_data" "region" {
  count = 2
  input = ["eu-west-1", "us-east-1"][count.index]
}

output "regions" {
  value = terraform_data.region[*].output
}
`,
    });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    const first = await runCommand(applyCommand, ["-no-color", "-auto-approve", "-target=module.cfg"], dir);
    expect(first.code).toBe(0);
    const second = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect(second.stderr).toBe("");
    expect(second.code).toBe(0);
    const buckets = () => readdirSync(path.join(cloud, "regions", "us-east-1", "sim_bucket"));
    expect(buckets()).toHaveLength(1);

    const plan = await runCommand(planCommand, ["-no-color", "-destroy"], dir);
    expect(plan.stderr).toBe("");
    expect(plan.stdout).toContain("Plan: 0 to add, 0 to change, 3 to destroy.");

    const destroy = await runCommand(applyCommand, ["-no-color", "-auto-approve", "-destroy"], dir);
    expect(destroy.stderr).toBe("");
    expect(destroy.stdout).toContain("Apply complete! Resources: 0 added, 0 changed, 3 destroyed.");
    // The bucket was deleted in the region the output named.
    expect(buckets()).toHaveLength(0);
  });
});
