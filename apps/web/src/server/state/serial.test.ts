import { describe, expect, it } from "vitest";
import { rewriteSerial } from "./serial";

const rw = (text: string, serial: number) => rewriteSerial(Buffer.from(text), serial).toString();

describe("rewriteSerial", () => {
  it("changes only the top-level serial value", () => {
    const text = '{\n  "version": 4,\n  "serial": 12,\n  "lineage": "x",\n  "resources": [{"serial": 3, "a": {"serial": 5}}]\n}\n';
    expect(rw(text, 13)).toBe(text.replace('"serial": 12', '"serial": 13'));
  });

  it("ignores serial as a string value and inside strings", () => {
    const text = '{"lineage":"\\"serial\\": 1","note":"serial","serial":7,"x":["serial"]}';
    expect(rw(text, 8)).toBe('{"lineage":"\\"serial\\": 1","note":"serial","serial":8,"x":["serial"]}');
  });

  it("handles an escaped key and rewrites duplicates (JSON.parse takes the last)", () => {
    expect(JSON.parse(rw('{"s\\u0065rial": 1, "serial" : 2}', 9))).toEqual({ serial: 9 });
    expect(rw('{"s\\u0065rial": 1, "serial" : 2}', 9)).toBe('{"s\\u0065rial": 9, "serial" : 9}');
  });

  it("keeps multi-byte text and large numbers intact", () => {
    const text = '{"outputs":{"n":{"value":12345678901234567890}},"name":"żółw 🐢","serial":1}';
    expect(rw(text, 2)).toBe(text.replace('"serial":1', '"serial":2'));
  });

  it("throws when there is no top-level serial", () => {
    expect(() => rw('{"a":{"serial":1}}', 2)).toThrow();
  });
});
