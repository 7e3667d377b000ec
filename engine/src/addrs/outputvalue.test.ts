import { describe, expect, it } from "vitest";
import { OutputValue, RootModule, RootModuleInstance, mustParseModuleInstanceStr, parseAbsOutputValueStr } from "./index.js";

describe("output values", () => {
  it("parses and prints", () => {
    for (const s of ["output.a", 'module.x["k"].output.a']) {
      const r = parseAbsOutputValueStr(s);
      expect(r.diagnostics).toEqual([]);
      expect(r.result?.toString()).toBe(s);
    }
  });
  const bad: [string, string][] = [
    ["output", "An output name is required."],
    ["output.a.b", "An output name is required."],
    ["foo.a", 'Output address must start with "output.".'],
    ['output["a"]', "An output name is required."],
  ];
  it.each(bad)("%s -> %s", (s, detail) => {
    const r = parseAbsOutputValueStr(s);
    expect(r.result).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.summary, d.detail])).toEqual([["Invalid address", detail]]);
  });
  it("converts between forms", () => {
    const abs = new OutputValue("o").absolute(mustParseModuleInstanceStr("module.a[0]"));
    expect(abs.configOutputValue().toString()).toBe("module.a.output.o");
    expect(abs.moduleCallOutput().output.toString()).toBe("module.a[0].o");
    expect(abs.moduleCallOutput().caller.isRoot()).toBe(true);
    expect(() => new OutputValue("o").absolute(RootModuleInstance).moduleCallOutput()).toThrow();
    expect(new OutputValue("o").inModule(RootModule).toString()).toBe("output.o");
    expect(abs.equal(new OutputValue("o").absolute(mustParseModuleInstanceStr("module.a[0]")))).toBe(true);
  });
});
