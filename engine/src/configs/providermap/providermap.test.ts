// The provider-instance map of a small tree (testdata/provider_validation/foreach): declared and
// implied configurations, explicit and implied references, keys written on resources and passed
// down through a module call's providers map, and default-provider inheritance.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Loader } from "../loader.js";
import { MemoryFS } from "../fs.js";
import { nodeFS } from "../nodefs.testkit.js";
import { buildProviderMap, providerRequirementsByModule } from "./index.js";

const DIR = path.join(import.meta.dirname, "..", "testdata", "provider_validation", "foreach");
const AWS = 'provider["registry.opentofu.org/hashicorp/aws"]';
const RANDOM = 'provider["registry.opentofu.org/hashicorp/random"]';

function load(dir: string) {
  const loader = new Loader({ fs: nodeFS(), workingDir: dir });
  const r = loader.loadConfig(dir);
  if (!r.config) throw new Error(r.diagnostics.map((d) => d.summary).join("; "));
  return { config: r.config, sources: loader.parser.sources };
}

describe("buildProviderMap", () => {
  const { config, sources } = load(DIR);
  const map = buildProviderMap(config, {
    sources,
    instanceKeys: (_cfg, pc) => (pc.alias === "by_region" ? ["eu", "us"] : undefined),
  });

  it("lists declared and implied configurations", () => {
    expect(map.configurations.map((c) => [c.address, c.kind, c.localName, c.alias, c.forEach?.text ?? null, c.instanceKeys])).toEqual([
      [AWS, "configured", "aws", "", null, null],
      [`${AWS}.by_region`, "configured", "aws", "by_region", "var.regions", ["eu", "us"]],
      [RANDOM, "implied", "random", "", null, null],
    ]);
    const byRegion = map.configurations[1];
    expect(byRegion?.provider).toBe("registry.opentofu.org/hashicorp/aws");
    expect(byRegion?.declRange?.start.line).toBe(19);
    expect(byRegion?.forEach?.range.start).toEqual({ line: 21, column: 14, byte: expect.any(Number) });
  });

  it("follows references to the configuration they use, with their keys", () => {
    const rows = map.references.map((r) => [r.kind, r.address, r.how, r.localConfig, r.inChild, r.keyExpression?.text ?? null, r.configuration, r.inheritedKey ? `${r.inheritedKey.moduleCall}: ${r.inheritedKey.expression.text}` : null]);
    expect(rows).toEqual([
      ["resource", "aws_s3_bucket.logs", "implied", "aws", null, null, AWS, null],
      ["resource", "aws_s3_bucket.regional", "explicit", "aws.by_region", null, "each.key", `${AWS}.by_region`, null],
      ["resource", "data.aws_caller_identity.eu", "explicit", "aws.by_region", null, '"eu"', `${AWS}.by_region`, null],
      ["module", "module.network", "explicit", "aws.by_region", "aws", "each.key", `${AWS}.by_region`, null],
      // Passed in with a key by the call's providers map.
      ["resource", "module.network.aws_vpc.this", "implied", "aws", null, null, `${AWS}.by_region`, "module.network: each.key"],
      // Not passed: default configurations are inherited from the parent, up to the implied root one.
      ["resource", "module.network.random_id.suffix", "implied", "random", null, null, RANDOM, null],
      ["resource", "module.shared.aws_vpc.this", "implied", "aws", null, null, AWS, null],
      ["resource", "module.shared.random_id.suffix", "implied", "random", null, null, RANDOM, null],
    ]);
  });

  it("is plain JSON", () => {
    expect(JSON.parse(JSON.stringify(map))).toEqual(map);
  });

  it("treats empty blocks that receive a configuration as proxies", () => {
    const fs = new MemoryFS({
      "main.tf": 'provider "aws" {\n  alias  = "west"\n  region = "us-west-2"\n}\nmodule "m" {\n  source    = "./m"\n  providers = {\n    aws.here = aws.west\n  }\n}',
      "m/main.tf": 'provider "aws" {\n  alias = "here"\n}\nprovider "aws" {\n  alias = "own"\n}\nresource "aws_vpc" "a" {\n  provider = aws.here\n}\nresource "aws_vpc" "b" {\n  provider = aws.own\n}\nresource "aws_vpc" "c" {\n  provider = aws.missing\n}',
    });
    const r = new Loader({ fs }).loadConfig(".");
    if (!r.config) throw new Error("no config");
    const m = buildProviderMap(r.config);
    expect(m.configurations.map((c) => [c.address, c.kind])).toEqual([
      [`module.m.${AWS}.own`, "empty"],
      [`${AWS}.west`, "configured"],
    ]);
    expect(m.references.filter((x) => x.kind === "resource").map((x) => [x.address, x.configuration, x.keyExpression])).toEqual([
      ["module.m.aws_vpc.a", `${AWS}.west`, null],
      ["module.m.aws_vpc.b", `module.m.${AWS}.own`, null],
      ["module.m.aws_vpc.c", null, null],
    ]);
  });
});

describe("providerRequirementsByModule", () => {
  it("lists each module's requirements in discovery order, children by name", () => {
    const { config } = load(DIR);
    const reqs = providerRequirementsByModule(config);
    const flat = (m: typeof reqs, depth = 0): string[] => [
      ...m.requirements.map((r) => `${"  ".repeat(depth)}${r.provider} ${JSON.stringify(r.versionConstraints)}`),
      ...m.children.flatMap((c) => [`${"  ".repeat(depth)}module.${c.name}`, ...flat(c, depth + 1)]),
    ];
    expect(flat(reqs)).toEqual([
      'registry.opentofu.org/hashicorp/aws ["~> 5.0"]',
      "module.network",
      '  registry.opentofu.org/hashicorp/aws []',
      '  registry.opentofu.org/hashicorp/random []',
      "module.shared",
      '  registry.opentofu.org/hashicorp/aws []',
      '  registry.opentofu.org/hashicorp/random []',
    ]);
  });
});
