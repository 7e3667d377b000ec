// Go's json.Marshal of values json.Unmarshal put in an interface{} (legacy outputs and metadata).
import { describe, expect, it } from "vitest";
import { parseGoJSON } from "../values/index.js";
import { goMarshalAny } from "./godecode.js";

function remarshal(json: string): string {
  const p = parseGoJSON(new TextEncoder().encode(json));
  if (!p.ok) throw new Error(p.error.message);
  return goMarshalAny(p.node);
}

describe("goMarshalAny", () => {
  it.each([
    ["12345678901234567890", "12345678901234567000"],
    ["1e21", "1e+21"],
    ["1e20", "100000000000000000000"],
    ["0.000001", "0.000001"],
    ["0.0000001", "1e-7"],
    ["1.50", "1.5"],
    ["-0", "-0"],
    ["1E2", "100"],
  ])("the number %s goes through float64 as %s", (input, want) => {
    expect(remarshal(input)).toBe(want);
  });
  it("sorts keys (the last duplicate wins) and escapes as Go does", () => {
    expect(remarshal('{"b": 1, "a": ["<&>", true, null], "b": 2}')).toBe('{"a":["\\u003c\\u0026\\u003e",true,null],"b":2}');
  });
});
