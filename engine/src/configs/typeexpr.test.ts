// Type constraint errors point where HCL's typeexpr points: at the bad keyword, a call's name or
// its arguments, not the whole `type` expression (cases t16 and x27 of the diagnostics diff).
import { describe, expect, it } from "vitest";
import { parseExpression } from "../hcl/index.js";
import { rangeText } from "./diag.testkit.js";
import { typeConstraintForExpr } from "./typeexpr.js";

function problems(src: string): Array<[string, string | undefined]> {
  return typeConstraintForExpr(parseExpression(src, "t.tf").result).diagnostics.map((d) => [d.detail, rangeText(d.subject)]);
}

describe("type constraint diagnostics", () => {
  it("points at an unknown keyword inside a constructor (x27)", () => {
    expect(problems("list(strin)")).toEqual([['The keyword "strin" is not a valid type specification.', "1:6-1:11"]]);
  });

  it("points at the name of optional() outside an object type (t16)", () => {
    expect(problems("optional(string)")).toEqual([['Keyword "optional" is valid only as a modifier for object type attributes.', "1:1-1:9"]]);
  });

  it("points at the arguments, or the extra ones", () => {
    expect(problems("string(1)")).toEqual([['Primitive type keyword "string" does not expect arguments.', "1:7-1:10"]]);
    expect(problems("list(string, number, bool)")).toEqual([["The list type constructor requires one argument specifying the element type.", "1:14-1:26"]]);
    expect(problems("object({a = optional(number, 1, 2)})")).toEqual([
      ["Optional attribute modifier expects at most two arguments: the attribute type, and a default value.", "1:21-1:35"],
    ]);
  });

  it("points at an optional attribute's default that does not fit", () => {
    expect(problems('object({a = optional(number, "x")})')).toEqual([
      ["This default value is not compatible with the attribute's type constraint: a number is required.", "1:30-1:33"],
    ]);
  });
});
