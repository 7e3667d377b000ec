import { describe, expect, it } from "vitest";
import {
  Provider,
  checkProviderLocalName,
  hostnameForComparison,
  impliedProviderForUnqualifiedType,
  isProviderPartNormalized,
  mustParseProviderSourceString,
  newBuiltInProvider,
  newDefaultProvider,
  newLegacyProvider,
  newProvider,
  parseProviderPart,
  parseProviderSourceString,
} from "./index.js";

const SOURCE_FORMAT = 'The "source" attribute must be in the format "[hostname/][namespace/]name"';
const BAD_CHARS =
  "must contain only letters, digits, dashes, and underscores, and may not use leading or trailing dashes or underscores";

describe("parseProviderSourceString", () => {
  const ok: [string, string][] = [
    ["registry.opentofu.org/hashicorp/aws", "registry.opentofu.org/hashicorp/aws"],
    ["registry.OpenTofu.org/HashiCorp/AWS", "registry.opentofu.org/hashicorp/aws"],
    ["terraform.io/builtin/terraform", "terraform.io/builtin/terraform"],
    ["hashicorp/aws", "registry.opentofu.org/hashicorp/aws"],
    ["HashiCorp/AWS", "registry.opentofu.org/hashicorp/aws"],
    ["aws", "registry.opentofu.org/hashicorp/aws"],
    ["AWS", "registry.opentofu.org/hashicorp/aws"],
    // A bare name is not checked for the redundant prefix (registry-address returns early).
    ["terraform-provider-aws", "registry.opentofu.org/hashicorp/terraform-provider-aws"],
    ["-/aws", "registry.opentofu.org/-/aws"],
    ["example.com/foo-bar/baz-boop", "example.com/foo-bar/baz-boop"],
    ["foo-bar/baz-boop", "registry.opentofu.org/foo-bar/baz-boop"],
    ["foo_bar/baz_boop", "registry.opentofu.org/foo_bar/baz_boop"],
    ["localhost:8080/foo/bar", "localhost:8080/foo/bar"],
    ["example.com:443/foo/bar", "example.com/foo/bar"],
    ["example.com:0080/foo/bar", "example.com:80/foo/bar"],
    ["Испытание/München", "registry.opentofu.org/испытание/münchen"],
    ["registry.terraform.io/hashicorp/aws", "registry.terraform.io/hashicorp/aws"],
  ];
  it.each(ok)("%s -> %s", (input, want) => {
    const r = parseProviderSourceString(input);
    expect(r.diagnostics).toEqual([]);
    expect(r.result?.toString()).toBe(want);
  });

  const bad: [string, string, string][] = [
    ["example.com/too/many/parts/here", "Invalid provider source string", SOURCE_FORMAT],
    ["/too///many//slashes", "Invalid provider source string", SOURCE_FORMAT],
    ["///", "Invalid provider source string", SOURCE_FORMAT],
    ["", "Invalid provider source string", SOURCE_FORMAT],
    ["a//b", "Invalid provider source string", SOURCE_FORMAT],
    ["/ / /", "Invalid provider source string", SOURCE_FORMAT],
    ["hashicorp/", "Invalid provider source string", SOURCE_FORMAT],
    ["example.com/hashicorp/badtype!", "Invalid provider type", `Invalid provider type "badtype!" in source "example.com/hashicorp/badtype!": ${BAD_CHARS}"`],
    ["example.com/hashicorp/bad--type", "Invalid provider type", 'Invalid provider type "bad--type" in source "example.com/hashicorp/bad--type": cannot use multiple consecutive dashes"'],
    ["example.com/hashicorp/-badtype", "Invalid provider type", `Invalid provider type "-badtype" in source "example.com/hashicorp/-badtype": ${BAD_CHARS}"`],
    ["example.com/hashicorp/badtype-", "Invalid provider type", `Invalid provider type "badtype-" in source "example.com/hashicorp/badtype-": ${BAD_CHARS}"`],
    ["example.com/hashicorp/bad.type", "Invalid provider type", 'Invalid provider type "bad.type" in source "example.com/hashicorp/bad.type": dots are not allowed"'],
    ["hashicorp/bad__type", "Invalid provider type", 'Invalid provider type "bad__type" in source "hashicorp/bad__type": cannot use multiple consecutive underscores"'],
    ["hashicorp/_bad", "Invalid provider type", 'Invalid provider type "_bad" in source "hashicorp/_bad": underscores may not be used as a prefix or suffix"'],
    ["example.com/badnamespace!/aws", "Invalid provider namespace", `Invalid provider namespace "" in source "example.com/badnamespace!/aws": ${BAD_CHARS}"`],
    ["example.com/bad--namespace/aws", "Invalid provider namespace", 'Invalid provider namespace "" in source "example.com/bad--namespace/aws": cannot use multiple consecutive dashes"'],
    ["example.com/-badnamespace/aws", "Invalid provider namespace", `Invalid provider namespace "" in source "example.com/-badnamespace/aws": ${BAD_CHARS}"`],
    ["example.com/bad.namespace/aws", "Invalid provider namespace", 'Invalid provider namespace "" in source "example.com/bad.namespace/aws": dots are not allowed"'],
    ["badhost!/hashicorp/aws", "Invalid provider source hostname", 'Invalid provider source hostname namespace "" in source "badhost!/hashicorp/aws": idna: disallowed rune U+0021"'],
    ["bad_host/hashicorp/aws", "Invalid provider source hostname", 'Invalid provider source hostname namespace "" in source "bad_host/hashicorp/aws": idna: disallowed rune U+005F"'],
    ["-bad.com/hashicorp/aws", "Invalid provider source hostname", 'Invalid provider source hostname namespace "" in source "-bad.com/hashicorp/aws": idna: invalid label "-bad""'],
    ["a..b/hashicorp/aws", "Invalid provider source hostname", 'Invalid provider source hostname namespace "" in source "a..b/hashicorp/aws": hostname contains empty label (two consecutive periods)"'],
    ["xn--80akhbyknj4f.com/hashicorp/aws", "Invalid provider source hostname", 'Invalid provider source hostname namespace "" in source "xn--80akhbyknj4f.com/hashicorp/aws": hostname label "xn--80akhbyknj4f" specified in punycode format; service hostnames must be given in unicode"'],
    ["example.com:99999/hashicorp/aws", "Invalid provider source hostname", 'Invalid provider source hostname namespace "" in source "example.com:99999/hashicorp/aws": port number is greater than 65535"'],
    ["example.com:x/hashicorp/aws", "Invalid provider source hostname", 'Invalid provider source hostname namespace "" in source "example.com:x/hashicorp/aws": port portion contains non-digit characters"'],
    ["example.com/-/aws", "Invalid provider namespace", 'The legacy provider namespace "-" can be used only with hostname registry.opentofu.org.'],
    [
      "example.com/opentofu/terraform-provider-bad",
      "Invalid provider type",
      'Provider source "example.com/opentofu/terraform-provider-bad" has a type with the prefix "terraform-provider-", which isn\'t valid. Although that prefix is often used in the names of version control repositories for Terraform providers, provider source strings should not include it.\n\nDid you mean "example.com/opentofu/bad"?',
    ],
    [
      "hashicorp/terraform-provider-aws",
      "Invalid provider type",
      'Provider source "hashicorp/terraform-provider-aws" has a type with the prefix "terraform-provider-", which isn\'t valid. Although that prefix is often used in the names of version control repositories for Terraform providers, provider source strings should not include it.\n\nDid you mean "hashicorp/aws"?',
    ],
    [
      "example.com/opentofu/terraform-bad",
      "Invalid provider type",
      'Provider source "example.com/opentofu/terraform-bad" has a type with the prefix "terraform-", which isn\'t allowed because it would be redundant to name a Terraform provider with that prefix. If you are the author of this provider, rename it to not include the prefix.',
    ],
    [
      "hashicorp/terraform-bad",
      "Invalid provider type",
      'Provider source "registry.opentofu.org/hashicorp/terraform-bad" has a type with the prefix "terraform-", which isn\'t allowed because it would be redundant to name a Terraform provider with that prefix. If you are the author of this provider, rename it to not include the prefix.',
    ],
    [
      "acme/opentofu-provider-foo",
      "Invalid provider type",
      'Provider source "acme/opentofu-provider-foo" has a type with the prefix "opentofu-provider-", which isn\'t valid. Although that prefix is sometimes used in the names of version control repositories for OpenTofu providers, provider source strings should not include it.\n\nDid you mean "acme/foo"?',
    ],
    [
      "acme/opentofu-foo",
      "Invalid provider type",
      'Provider source "registry.opentofu.org/acme/opentofu-foo" has a type with the prefix "opentofu-", which isn\'t allowed because it would be redundant to name an OpenTofu provider with that prefix. If you are the author of this provider, rename it to not include the prefix.',
    ],
  ];
  it.each(bad)("%s -> %s", (input, summary, detail) => {
    const r = parseProviderSourceString(input);
    expect(r.result).toBeUndefined();
    expect(r.diagnostics).toEqual([{ severity: "error", summary, detail }]);
  });

  it("mustParseProviderSourceString throws on invalid input", () => {
    expect(mustParseProviderSourceString("hashicorp/aws").forDisplay()).toBe("hashicorp/aws");
    expect(() => mustParseProviderSourceString("a/b/c/d")).toThrow(/Invalid provider source string/);
  });
});

describe("Provider", () => {
  it("prints and displays", () => {
    const aws = newDefaultProvider("aws");
    expect(aws.toString()).toBe("registry.opentofu.org/hashicorp/aws");
    expect(`${aws}`).toBe("registry.opentofu.org/hashicorp/aws");
    expect(aws.forDisplay()).toBe("hashicorp/aws");
    expect(new Provider("registry.opentofu.org", "othercorp", "test").forDisplay()).toBe("othercorp/test");
    expect(new Provider("example.com", "hashicorp", "test").forDisplay()).toBe("example.com/hashicorp/test");
    expect(newBuiltInProvider("terraform").forDisplay()).toBe("terraform.io/builtin/terraform");
    expect(() => new Provider("", "", "").toString()).toThrow();
  });

  it("classifies", () => {
    const builtin = newBuiltInProvider("terraform");
    expect(builtin.isBuiltIn()).toBe(true);
    expect(new Provider("opentofu.org", "builtin", "x").isBuiltIn()).toBe(true);
    expect(new Provider("terraform.io", "boop", "x").isBuiltIn()).toBe(false);
    expect(new Provider("registry.opentofu.org", "builtin", "x").isBuiltIn()).toBe(false);
    expect(newDefaultProvider("aws").isDefault()).toBe(true);
    expect(new Provider("registry.opentofu.org", "othercorp", "x").isDefault()).toBe(false);
    expect(newLegacyProvider("Weird_Name").isLegacy()).toBe(true);
    expect(newLegacyProvider("Weird_Name").type).toBe("Weird_Name");
    expect(new Provider("example.com", "-", "x").isLegacy()).toBe(false);
    expect(newLegacyProvider("aws").legacyString()).toBe("aws");
    expect(builtin.legacyString()).toBe("terraform");
    expect(() => newDefaultProvider("aws").legacyString()).toThrow("registry.opentofu.org/hashicorp/aws cannot be represented as a legacy string");
  });

  it("compares", () => {
    const a = newProvider("registry.opentofu.org", "foo", "test");
    expect(a.equal(newProvider("registry.opentofu.org", "FOO", "Test"))).toBe(true);
    expect(a.equal(newProvider("registry.opentofu.org", "bar", "test"))).toBe(false);
    expect(a.equal(newProvider("registry.opentofu.org", "foo", "my-test"))).toBe(false);
    expect(a.equal(newProvider("example.com", "foo", "test"))).toBe(false);
    expect(newProvider("a.com", "z", "z").lessThan(newProvider("b.com", "a", "a"))).toBe(true);
    expect(newProvider("a.com", "a", "z").lessThan(newProvider("a.com", "b", "a"))).toBe(true);
    expect(newProvider("a.com", "a", "a").lessThan(newProvider("a.com", "a", "b"))).toBe(true);
    expect(a.lessThan(a)).toBe(false);
  });

  it("rejects special namespaces in newProvider", () => {
    expect(() => newProvider("registry.opentofu.org", "-", "aws")).toThrow(/legacy/);
    expect(() => newProvider("registry.opentofu.org", "?", "aws")).toThrow(/unknown namespace/);
    expect(() => newProvider("registry.opentofu.org", "", "aws")).toThrow(/empty namespace/);
    expect(() => newDefaultProvider("bad--name")).toThrow("cannot use multiple consecutive dashes");
  });

  it("implies a provider for an unqualified type", () => {
    expect(impliedProviderForUnqualifiedType("terraform").toString()).toBe("terraform.io/builtin/terraform");
    expect(impliedProviderForUnqualifiedType("aws").toString()).toBe("registry.opentofu.org/hashicorp/aws");
  });
});

describe("parseProviderPart", () => {
  const cases: [string, string | undefined, string | undefined][] = [
    ["foo", "foo", undefined],
    ["FOO", "foo", undefined],
    ["Foo", "foo", undefined],
    ["abc-123", "abc-123", undefined],
    ["abc_123", "abc_123", undefined],
    ["Испытание", "испытание", undefined],
    ["m\u00fcnchen", "m\u00fcnchen", undefined],
    ["mu\u0308nchen", "m\u00fcnchen", undefined],
    ["abc--123", undefined, "cannot use multiple consecutive dashes"],
    ["xn--80akhbyknj4f", undefined, "cannot use multiple consecutive dashes"],
    ["abc__123", undefined, "cannot use multiple consecutive underscores"],
    ["_abc", undefined, "underscores may not be used as a prefix or suffix"],
    ["abc_", undefined, "underscores may not be used as a prefix or suffix"],
    ["abc.123", undefined, "dots are not allowed"],
    ["-abc123", undefined, BAD_CHARS],
    ["abc123-", undefined, BAD_CHARS],
    ["abc 123", undefined, BAD_CHARS],
    ["abc!", undefined, BAD_CHARS],
    ["", undefined, "must have at least one character"],
  ];
  it.each(cases)("%j", (given, part, error) => {
    const r = parseProviderPart(given);
    expect(r.part).toBe(part);
    expect(r.error).toBe(error);
  });

  it("reports whether a part is normalized", () => {
    expect(isProviderPartNormalized("aws")).toEqual({ normalized: true });
    expect(isProviderPartNormalized("AWS")).toEqual({ normalized: false });
    expect(isProviderPartNormalized("a--b")).toEqual({ normalized: false, error: "cannot use multiple consecutive dashes" });
  });
});

describe("checkProviderLocalName", () => {
  it("accepts a normalized name", () => {
    expect(checkProviderLocalName("aws")).toEqual([]);
  });
  it("rejects an invalid name", () => {
    expect(checkProviderLocalName("lo--cal")).toEqual([
      { severity: "error", summary: "Invalid provider local name", detail: "lo--cal is an invalid provider local name: cannot use multiple consecutive dashes" },
    ]);
  });
  it("rejects a name that is not normalized", () => {
    expect(checkProviderLocalName("AWS")).toEqual([
      {
        severity: "error",
        summary: "Invalid provider local name",
        detail: 'Provider names must be normalized. Replace "AWS" with "aws" to fix this error.',
      },
    ]);
  });
});

describe("hostnameForComparison", () => {
  const cases: [string, string | undefined, string | undefined][] = [
    ["example.com", "example.com", undefined],
    ["Example.COM", "example.com", undefined],
    ["example.com.", "example.com.", undefined],
    ["example.com:443", "example.com", undefined],
    ["example.com:8443", "example.com:8443", undefined],
    ["bücher.de", "bücher.de", undefined],
    ["", undefined, "empty string is not a valid hostname"],
    [":80", undefined, "empty string is not a valid hostname"],
    ["https://example.com", undefined, "need just a hostname and optional port number, not a full URL"],
    ["ab--cd.com", undefined, 'idna: invalid label "ab--cd"'],
    ["a b.com", undefined, "idna: disallowed rune U+0020"],
  ];
  it.each(cases)("%j", (given, hostname, error) => {
    const r = hostnameForComparison(given);
    expect(r.hostname).toBe(hostname);
    expect(r.error).toBe(error);
  });
});
