import { describe, expect, it } from "vitest";
import {
  AbsProviderConfig,
  LocalProviderConfig,
  Module,
  RootModule,
  mustParseModuleInstanceStr,
  newBuiltInProvider,
  newDefaultProvider,
  newLegacyProvider,
  parseAbsProviderConfigInstanceStr,
  parseAbsProviderConfigStr,
  parseLegacyAbsProviderConfigStr,
  parseProviderConfigCompactStr,
  providerConfigAliased,
  providerConfigDefault,
  stringKey,
  intKey,
} from "./index.js";

const INVALID = "Invalid provider configuration address";
const errs = (r: { diagnostics: { summary: string; detail: string }[] }) => r.diagnostics.map((d) => [d.summary, d.detail]);

describe("AbsProviderConfig", () => {
  it("prints", () => {
    const aws = newDefaultProvider("aws");
    expect(new AbsProviderConfig(RootModule, aws).toString()).toBe('provider["registry.opentofu.org/hashicorp/aws"]');
    expect(new AbsProviderConfig(new Module(["a", "b"]), aws, "west").toString()).toBe(
      'module.a.module.b.provider["registry.opentofu.org/hashicorp/aws"].west',
    );
    expect(new AbsProviderConfig(RootModule, aws, "x").instanceString(intKey(0))).toBe('provider["registry.opentofu.org/hashicorp/aws"].x[0]');
  });

  it("prints the legacy form", () => {
    expect(new AbsProviderConfig(RootModule, newLegacyProvider("aws")).legacyString()).toBe("provider.aws");
    expect(new AbsProviderConfig(new Module(["m"]), newLegacyProvider("aws"), "x").legacyString()).toBe("module.m.provider.aws.x");
    expect(new AbsProviderConfig(RootModule, newBuiltInProvider("terraform"), "x").legacyString()).toBe("provider.terraform.x");
    expect(() => new AbsProviderConfig(RootModule, newDefaultProvider("aws")).legacyString()).toThrow();
  });

  it("knows what it may inherit from", () => {
    const aws = newDefaultProvider("aws");
    expect(new AbsProviderConfig(new Module(["a", "b"]), aws).inherited()?.toString()).toBe('module.a.provider["registry.opentofu.org/hashicorp/aws"]');
    expect(new AbsProviderConfig(RootModule, aws).inherited()).toBeUndefined();
    expect(new AbsProviderConfig(new Module(["a"]), aws, "x").inherited()).toBeUndefined();
  });

  it("builds from module instances", () => {
    const m = mustParseModuleInstanceStr('module.a["k"]');
    expect(providerConfigDefault(m, newDefaultProvider("aws")).toString()).toBe('module.a.provider["registry.opentofu.org/hashicorp/aws"]');
    expect(providerConfigAliased(m, newDefaultProvider("aws"), "b").alias).toBe("b");
    expect(providerConfigDefault(m, newDefaultProvider("aws")).equal(new AbsProviderConfig(new Module(["a"]), newDefaultProvider("aws")))).toBe(true);
  });
});

describe("parseAbsProviderConfigStr", () => {
  it("normalises the source address", () => {
    const r = parseAbsProviderConfigStr('provider["AWS"].Foo');
    expect(r.diagnostics).toEqual([]);
    expect(r.result?.toString()).toBe('provider["registry.opentofu.org/hashicorp/aws"].Foo');
  });

  it("rejects an instance key", () => {
    const r = parseAbsProviderConfigStr('provider["registry.opentofu.org/hashicorp/aws"].foo["k"]');
    expect(r.result).toBeUndefined();
    expect(errs(r)).toEqual([[INVALID, "A provider address must not include an instance key."]]);
    expect([r.diagnostics[0]?.subject?.start.byte, r.diagnostics[0]?.subject?.end.byte]).toEqual([0, 56]);
  });

  it("passes source address errors through", () => {
    const r = parseAbsProviderConfigStr('provider["a/b/c/d"]');
    expect(errs(r)).toEqual([["Invalid provider source string", 'The "source" attribute must be in the format "[hostname/][namespace/]name"']]);
  });

  it("reports a bad instance key", () => {
    const r = parseAbsProviderConfigInstanceStr('provider["aws"].a[1.5]');
    expect(errs(r)).toEqual([[INVALID, "Invalid provider instance key: value must be a whole number, between -9223372036854775808 and 9223372036854775807."]]);
  });

  it("round-trips instance keys", () => {
    const r = parseAbsProviderConfigInstanceStr('module.m.provider["registry.opentofu.org/hashicorp/aws"].a["us \\"east\\""]');
    expect(r.result?.key).toEqual(stringKey('us "east"'));
    expect(r.result?.config.instanceString(r.result.key)).toBe('module.m.provider["registry.opentofu.org/hashicorp/aws"].a["us \\"east\\""]');
  });

  it("points at the problem", () => {
    const r = parseAbsProviderConfigInstanceStr("module.a.aws.foo");
    expect([r.diagnostics[0]?.subject?.start.byte, r.diagnostics[0]?.subject?.end.byte]).toEqual([8, 16]);
  });
});

describe("parseLegacyAbsProviderConfigStr", () => {
  const ok: [string, string, string, string][] = [
    ["provider.aws", "", "registry.opentofu.org/-/aws", ""],
    ["provider.aws.foo", "", "registry.opentofu.org/-/aws", "foo"],
    ["module.bar.provider.aws", "module.bar", "registry.opentofu.org/-/aws", ""],
    ["module.bar.module.baz.provider.aws.foo", "module.bar.module.baz", "registry.opentofu.org/-/aws", "foo"],
    ["provider.terraform", "", "terraform.io/builtin/terraform", ""],
  ];
  it.each(ok)("%s", (src, module, provider, alias) => {
    const r = parseLegacyAbsProviderConfigStr(src);
    expect(r.diagnostics).toEqual([]);
    expect(r.result?.module.toString()).toBe(module);
    expect(r.result?.provider.toString()).toBe(provider);
    expect(r.result?.alias).toBe(alias);
  });

  const bad: [string, string][] = [
    ["module.a[0].provider.aws", "Provider address cannot contain module indexes"],
    ["aws", 'Provider address must begin with "provider.", followed by a provider type name.'],
    ["provider", 'Provider address must begin with "provider.", followed by a provider type name.'],
    ["provider.aws.foo.bar", "Extraneous operators after provider configuration alias."],
    ['provider["aws"]', 'The prefix "provider." must be followed by a provider type name.'],
    ['provider.aws["foo"]', "Provider type name must be followed by a configuration alias name."],
  ];
  it.each(bad)("%s -> %s", (src, detail) => {
    const r = parseLegacyAbsProviderConfigStr(src);
    expect(r.result).toBeUndefined();
    expect(errs(r)).toEqual([[INVALID, detail]]);
  });
});

describe("LocalProviderConfig", () => {
  it("prints", () => {
    expect(new LocalProviderConfig("aws").toString()).toBe("provider.aws");
    expect(new LocalProviderConfig("aws", "foo").toString()).toBe("provider.aws.foo");
    expect(new LocalProviderConfig("aws", "foo").stringCompact()).toBe("aws.foo");
    expect(new LocalProviderConfig("aws").stringCompact()).toBe("aws");
    expect(new LocalProviderConfig("").toString()).toBe("provider.<invalid>");
    expect(new LocalProviderConfig("a", "b").equal(new LocalProviderConfig("a", "b"))).toBe(true);
  });

  it("parses the compact form", () => {
    expect(parseProviderConfigCompactStr("aws").result?.stringCompact()).toBe("aws");
    expect(parseProviderConfigCompactStr("aws.foo").result?.stringCompact()).toBe("aws.foo");
    // OpenTofu does not look past the alias.
    expect(parseProviderConfigCompactStr("aws.foo.bar").result?.stringCompact()).toBe("aws.foo");
    expect(errs(parseProviderConfigCompactStr('aws["foo"]'))).toEqual([
      [INVALID, "The provider type name must either stand alone or be followed by an alias name separated with a dot."],
    ]);
    expect(errs(parseProviderConfigCompactStr('aws["foo"].bar'))).toEqual([
      [INVALID, "The provider type name must either stand alone or be followed by an alias name separated with a dot."],
      [INVALID, "Extraneous extra operators after provider configuration address."],
    ]);
  });
});
