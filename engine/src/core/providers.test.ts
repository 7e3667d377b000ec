import { describe, expect, it } from "vitest";
import { NoKey, instanceKeyString } from "../addrs/index.js";
import { attribute, block, type GetProviderSchemaResponse, type Provider } from "../providers/index.js";
import { StringType } from "../values/index.js";
import { Context } from "./context.js";
import { errorsOf, loadConfig } from "./core.testkit.js";
import { MockProvider, SIMPLE } from "./lifecycle.testkit.js";
import type { ProviderFactory, ResourceInstanceProvider } from "./providers.js";

/** MockProvider whose provider block requires `region`, as real providers' blocks often do. */
class RegionalProvider extends MockProvider {
  configured: string[] = [];
  constructor() {
    super(new Map([["test_object", SIMPLE]]));
  }
  override async getProviderSchema(): Promise<GetProviderSchemaResponse> {
    const s = await super.getProviderSchema();
    return { ...s, provider: { version: 0, block: block({ region: attribute({ type: StringType, required: true }) }) } };
  }
  override async configureProvider(req?: { config: { kind: string; attrs?: ReadonlyMap<string, { kind: string; value?: unknown }> } }) {
    const region = req?.config.attrs?.get("region");
    this.configured.push(region?.kind === "string" ? String(region.value) : "?");
    return { diagnostics: [] };
  }
}

const CONFIG = {
  "main.tf": `
terraform {
  required_providers {
    test = {
      source = "hashicorp/test"
    }
  }
}

variable "regions" {
  type    = set(string)
  default = ["a", "b"]
}

provider "test" {
  alias  = "real"
  region = "r"
}

provider "test" {
  alias    = "each"
  for_each = var.regions
  region   = each.key
}

# Served by a preconfigured instance (the factory says so), which is never configured: its
# region is never sent.
provider "test" {
  alias  = "mocked"
  region = "never-sent"
}

resource "test_object" "real" {
  provider    = test.real
  test_string = "real"
}

resource "test_object" "mocked" {
  provider    = test.mocked
  test_string = "mocked"
}

resource "test_object" "each" {
  for_each    = var.regions
  provider    = test.each[each.key]
  test_string = each.key
}
`,
};

describe("ProviderManager: per-configuration instances", () => {
  it("starts an instance per configuration instance, keeps a non-reusable schema instance to itself, and never configures a preconfigured one", async () => {
    const starts: string[] = [];
    const real: RegionalProvider[] = [];
    const schemaOnly = new RegionalProvider();
    const mocked = new RegionalProvider();
    const factory: ProviderFactory = async (_type, instance) => {
      if (!instance) {
        starts.push("schema");
        return { ok: true, provider: schemaOnly, reusable: false };
      }
      starts.push(instance.config.instanceString(instance.key));
      if (instance.config.alias === "mocked") return { ok: true, provider: mocked, preconfigured: true };
      const p = new RegionalProvider();
      real.push(p);
      return { ok: true, provider: p };
    };
    const r = await new Context({ providers: factory }).plan(loadConfig(CONFIG), new (await import("../states/index.js")).State());
    expect(errorsOf(r.diagnostics)).toEqual([]);
    const base = 'provider["registry.opentofu.org/hashicorp/test"]';
    expect(starts.sort()).toEqual([`${base}.each["a"]`, `${base}.each["b"]`, `${base}.mocked`, `${base}.real`, "schema"].sort());
    // The schema instance served no configuration; the mocked one was never configured.
    expect(schemaOnly.calls).toEqual([]);
    expect(schemaOnly.configured).toEqual([]);
    expect(mocked.configured).toEqual([]);
    expect(mocked.calls).toEqual(["PlanResourceChange test_object"]);
    expect(real.map((p) => p.configured[0]).sort()).toEqual(["a", "b", "r"]);
  });

  it("hands the schema instance to the first configuration when the factory does not say otherwise", async () => {
    let started = 0;
    const factory: ProviderFactory = async () => {
      started++;
      return { ok: true, provider: new MockProvider(new Map([["test_object", SIMPLE]])) };
    };
    const r = await new Context({ providers: factory }).plan(
      loadConfig({ "main.tf": `resource "test_object" "a" {\n  test_string = "x"\n}\n` }),
      new (await import("../states/index.js")).State(),
    );
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(started).toBe(1);
  });

  it("asks the resource hook for the provider of each resource instance, with the configuration instance it resolved to", async () => {
    const seen: string[] = [];
    const answered = new MockProvider(new Map([["test_object", SIMPLE]]));
    const factory: ProviderFactory = async (_type, instance) =>
      instance?.config.alias === "mocked" ? { ok: true, provider: new RegionalProvider(), preconfigured: true } : { ok: true, provider: new RegionalProvider() };
    const resourceProvider: ResourceInstanceProvider = ({ resource, config, key, provider, schema }) => {
      seen.push(`${resource.toString()} -> ${config.alias}${key === NoKey ? "" : instanceKeyString(key)}`);
      expect(schema.resourceTypes.has("test_object")).toBe(true);
      const p: Provider = resource.toString() === "test_object.real" ? answered : provider;
      return p;
    };
    const r = await new Context({ providers: factory, resourceProvider }).plan(loadConfig(CONFIG), new (await import("../states/index.js")).State());
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(seen.sort()).toEqual(['test_object.each["a"] -> each["a"]', 'test_object.each["b"] -> each["b"]', "test_object.mocked -> mocked", "test_object.real -> real"]);
    expect(answered.calls).toEqual(["PlanResourceChange test_object"]);
  });
});
