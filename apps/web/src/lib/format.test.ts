import { describe, expect, it } from "vitest";
import { flatten, formatAge, formatBytes, formatDate, formatValue, timeAgo } from "./format";

describe("flatten (attribute tables)", () => {
  it("turns nested attributes into dotted and indexed paths", () => {
    expect(flatten({ id: "i-1", tags: { Name: "web" }, ingress: [{ port: 22 }, { port: 443 }] })).toEqual([
      ["id", "i-1"],
      ["tags.Name", "web"],
      ["ingress[0].port", 22],
      ["ingress[1].port", 443],
    ]);
  });
  it("quotes keys that are not identifiers and keeps empty containers and nulls as leaves", () => {
    expect(flatten({ "a.b": 1, "with space": { x: null }, empty: {}, list: [] })).toEqual([
      ['"a.b"', 1],
      ['"with space".x', null],
      ["empty", {}],
      ["list", []],
    ]);
  });
  it("shows a bare value under a placeholder path", () => {
    expect(flatten("text")).toEqual([["(value)", "text"]]);
  });
});

describe("display formats", () => {
  it("formats values as one line of JSON, so empty strings and null differ", () => {
    expect(formatValue("")).toBe('""');
    expect(formatValue(null)).toBe("null");
    expect(formatValue({ a: [1] })).toBe('{"a":[1]}');
  });
  it("formats ages, sizes and dates", () => {
    expect(formatAge(42)).toBe("42s");
    expect(formatAge(125)).toBe("2m 5s");
    expect(formatAge(3 * 3600 + 60)).toBe("3h 1m");
    expect(formatAge(3 * 86400 + 7200)).toBe("3d 2h");
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(50 * 1024 * 1024)).toBe("50.0 MiB");
    expect(formatDate("2026-11-22T05:30:00.000Z")).toBe("2026-11-22 05:30:00 UTC");
    expect(formatDate(null)).toBe("—");
    const now = Date.parse("2026-11-22T06:00:00Z");
    expect(timeAgo("2026-11-22T05:59:58Z", now)).toBe("just now");
    expect(timeAgo("2026-11-22T05:57:30Z", now)).toBe("2m 30s ago");
    expect(timeAgo(null, now)).toBe("never");
  });
});
