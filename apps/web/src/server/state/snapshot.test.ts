import { describe, expect, it } from "vitest";
import { parseSnapshot, sameSnapshot } from "./snapshot";

const b = (v: unknown) => Buffer.from(typeof v === "string" ? v : JSON.stringify(v));

describe("parseSnapshot", () => {
  it("summarises a v4 state", () => {
    const { summary } = parseSnapshot(b({ version: 4, terraform_version: "1.11.4", serial: 7, lineage: "l", outputs: {}, resources: [{ mode: "managed", type: "t", name: "n", instances: [{}, {}] }] }));
    expect(summary).toEqual({ serial: 7, lineage: "l", terraformVersion: "1.11.4", resourceCount: 1, instanceCount: 2, encrypted: false });
  });

  it("names the problem in its 400", () => {
    const msg = (v: unknown) => {
      try {
        parseSnapshot(b(v));
      } catch (e) {
        return `${(e as Error).message}: ${(e as { detail?: string }).detail}`;
      }
      return "accepted";
    };
    expect(msg({ version: 4, serial: 1, lineage: "l", resources: [], outputs: [] })).toMatch(/"outputs" must be an object/);
    expect(msg({ version: 4, serial: 1, lineage: "l", resources: [], terraform_version: 1 })).toMatch(/"terraform_version"/);
    expect(msg({ version: 4, serial: 1, lineage: "", resources: [] })).toMatch(/"lineage"/);
    expect(msg({ version: 4, serial: 2 ** 60, lineage: "l", resources: [] })).toMatch(/"serial"/);
    expect(msg({ version: 4, serial: 1, lineage: "l", resources: [{ mode: "managed", type: "t", name: "n", instances: [1] }] })).toMatch(/resources\[0\]\.instances\[0\]/);
    expect(msg("\u00ff")).toMatch(/not valid JSON/);
  });
});

describe("sameSnapshot", () => {
  it("ignores formatting, not content", () => {
    expect(sameSnapshot(b('{"a": 1}'), b('{\n  "a": 1\n}\n'))).toBe(true);
    expect(sameSnapshot(b('{"a": 1}'), b('{"a": 2}'))).toBe(false);
    expect(sameSnapshot(b('{"a": "x y"}'), b('{"a":"xy"}'))).toBe(false);
    expect(sameSnapshot(b('{"a": "q\\" b"}'), b('{ "a" : "q\\" b" }'))).toBe(true);
    // Beyond 2^53 these parse to the same number, but they are different states.
    expect(sameSnapshot(b('{"n": 12345678901234567890}'), b('{"n": 12345678901234567891}'))).toBe(false);
  });
});
