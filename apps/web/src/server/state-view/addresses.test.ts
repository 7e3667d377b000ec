import { describe, expect, it } from "vitest";
import { compareKeys, formatKey, formatPath, hclQuote, instanceAddress, resourceAddress } from "./addresses";

describe("instance addresses", () => {
  it("prints managed and data resources with module paths and keys as OpenTofu does", () => {
    expect(instanceAddress("", "managed", "aws_instance", "web", null)).toBe("aws_instance.web");
    expect(instanceAddress("", "managed", "aws_instance", "web", 0)).toBe("aws_instance.web[0]");
    expect(instanceAddress('module.a["x"]', "managed", "aws_instance", "web", 0)).toBe('module.a["x"].aws_instance.web[0]');
    expect(instanceAddress("", "data", "aws_ami", "x", null)).toBe("data.aws_ami.x");
    expect(instanceAddress("module.net[2].module.sub", "data", "aws_ami", "x", "k")).toBe('module.net[2].module.sub.data.aws_ami.x["k"]');
    expect(resourceAddress("module.a", "managed", "t", "n")).toBe("module.a.t.n");
  });

  it("quotes string keys with HCL escapes, including template introducers", () => {
    expect(formatKey("plain")).toBe('["plain"]');
    expect(formatKey("")).toBe('[""]');
    expect(formatKey('say "hi"')).toBe('["say \\"hi\\""]');
    expect(formatKey("back\\slash")).toBe('["back\\\\slash"]');
    expect(formatKey("a\nb\tc\rd")).toBe('["a\\nb\\tc\\rd"]');
    // `${` and `%{` start templates in HCL, so the sigil is doubled; a lone $ or % is left alone.
    expect(hclQuote("${var.x} and %{ if } and $5 and 100%")).toBe('"$${var.x} and %%{ if } and $5 and 100%"');
    expect(hclQuote("ünïcödé ✓ 日本")).toBe('"ünïcödé ✓ 日本"');
    // Not printable in Go's sense: control characters, non-ASCII spaces, lone surrogates.
    expect(hclQuote("a\u0000b\u007fc\u00a0d")).toBe('"a\\u0000b\\u007fc\\u00a0d"');
    expect(hclQuote("x\ud800y")).toBe('"x\\ud800y"');
    expect(hclQuote("emoji 😀")).toBe('"emoji 😀"');
    expect(hclQuote("\u{e0001}")).toBe('"\\U000e0001"');
  });

  it("orders keys as OpenTofu does: no key, then integers by value, then strings", () => {
    const keys = ["b", 10, null, 2, "a", "B"];
    expect([...keys].sort(compareKeys)).toEqual([null, 2, 10, "B", "a", "b"]);
  });
});

describe("attribute paths", () => {
  it("flattens paths with dots, indexes, and quoted keys that are not identifiers", () => {
    expect(formatPath(["tags", "Name"])).toBe("tags.Name");
    expect(formatPath(["ingress", 0, "cidr_blocks", 1])).toBe("ingress[0].cidr_blocks[1]");
    expect(formatPath(["tags", "kubernetes.io/role"])).toBe('tags["kubernetes.io/role"]');
    expect(formatPath(["m", "with space", "x"])).toBe('m["with space"].x');
    expect(formatPath([0, "a"])).toBe("[0].a");
    expect(formatPath(["k x"])).toBe('["k x"]');
    expect(formatPath([])).toBe("");
  });
});
