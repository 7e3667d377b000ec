// The `configuration` section's expressions (OpenTofu's jsonconfig marshalExpressions): constant
// values, references with every shorter address they imply, nested blocks by their schema's
// nesting, provider blocks read with the provider's schema.
import { describe, expect, it } from "vitest";
import { Loader, MemoryFS, RootModuleInputs, rootModuleCall, type Config } from "../configs/index.js";
import { hasErrors } from "../hcl/index.js";
import { marshalConfigJSON, newSchemas } from "../plans/index.js";
import { attribute, block, nestedBlock } from "../providers/schema/index.js";
import { StringType, mapOf } from "../values/index.js";
import { configExpressions } from "./config_expressions.js";

function loadConfig(main: string): Config {
  const loader = new Loader({ fs: new MemoryFS({ "main.tf": main }), workingDir: "." });
  const r = loader.loadConfig(".", { staticCall: rootModuleCall(new RootModuleInputs(new Map()), ".", "default") });
  if (hasErrors(r.diagnostics) || !r.config) throw new Error(r.diagnostics.map((d) => `${d.summary}: ${d.detail}`).join("; "));
  return r.config;
}

const PROVIDER = "registry.opentofu.org/hashicorp/cloud";
const providerBlock = block(
  { region: attribute({ type: StringType, optional: true }) },
  { assume_role: nestedBlock(block({ role_arn: attribute({ type: StringType, optional: true }) }), "single") },
);
const thingBlock = block(
  { name: attribute({ type: StringType, optional: true }), tags: attribute({ type: mapOf(StringType), optional: true }), id: attribute({ type: StringType, computed: true }) },
  {
    rule: nestedBlock(block({ port: attribute({ type: StringType, optional: true }) }), "list"),
    label: nestedBlock(block({ v: attribute({ type: StringType, optional: true }) }), "map"),
  },
);
const schemas = newSchemas({ [PROVIDER]: { provider: { version: 0, block: providerBlock }, resourceTypes: { cloud_thing: { version: 2, block: thingBlock } } } });

describe("configuration expressions", () => {
  const config = loadConfig(`terraform {
  required_providers {
    cloud = { source = "hashicorp/cloud" }
  }
}
variable "role" {
  default = "r"
}
provider "cloud" {
  alias  = "x"
  region = "eu"
  assume_role {
    role_arn = var.role
  }
}
resource "cloud_thing" "a" {
  provider = cloud.x
  count    = 2
  name     = cloud_thing.b[0].tags["k"]
  tags     = { k = "v" }
  rule {
    port = "80"
  }
  rule {
    port = upper("x")
  }
  label "one" {
    v = count.index
  }
  dynamic "rule" {
    for_each = [1]
    content {
      port = rule.value
    }
  }
}
resource "cloud_thing" "b" {
  provider = cloud.x
  count    = 1
}
`);
  const doc = JSON.parse(marshalConfigJSON(config, schemas, configExpressions)) as {
    provider_config: Record<string, { expressions?: unknown }>;
    root_module: { resources: Array<{ address: string; expressions?: unknown; count_expression?: unknown; schema_version: number }> };
  };

  it("reads a provider block with the provider's schema: nested blocks in, meta-arguments out", () => {
    expect(doc.provider_config["cloud.x"]?.expressions).toEqual({ assume_role: { role_arn: { references: ["var.role"] } }, region: { constant_value: "eu" } });
  });

  it("writes a resource's arguments and blocks as their schema nests them, dynamic blocks left out", () => {
    const a = doc.root_module.resources.find((r) => r.address === "cloud_thing.a");
    expect(a?.expressions).toEqual({
      label: { one: { v: { references: ["count.index"] } } },
      name: { references: ['cloud_thing.b[0].tags["k"]', "cloud_thing.b[0].tags", "cloud_thing.b[0]", "cloud_thing.b"] },
      rule: [{ port: { constant_value: "80" } }, { port: {} }],
      tags: { constant_value: { k: "v" } },
    });
    expect(a?.count_expression).toEqual({ constant_value: 2 });
    expect(a?.schema_version).toBe(2);
    // An empty body has no expressions member at all.
    expect(doc.root_module.resources.find((r) => r.address === "cloud_thing.b")?.expressions).toBeUndefined();
  });
});
