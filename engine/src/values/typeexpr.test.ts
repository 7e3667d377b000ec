import { describe, expect, it } from "vitest";
import { convert } from "./convert.js";
import { formatPathError } from "./path.js";
import { lit, show, ty } from "./testutil.js";
import { applyDefaults, parseConstraintText, typeConstraintFromText, typeConstraintWithDefaults } from "./typeexpr.js";
import {
  DynamicPseudoType,
  NumberType,
  StringType,
  friendlyName,
  friendlyNameForConstraint,
  listOf,
  mapOf,
  marshalType,
  objectOf,
  setOf,
  tupleOf,
  typeEquals,
  typeFromJSON,
  typeString,
  type Type,
} from "./types.js";
import { SENSITIVE, mark, nullVal, unknownVal, type Value } from "./value.js";
import { listVal, mapVal, setVal, numberIntVal } from "./value.js";

describe("type names", () => {
  const cases: Array<[string, string, string, string]> = [
    ["string", "string", "string", "string"],
    ["number", "number", "number", "number"],
    ["bool", "bool", "bool", "bool"],
    ["any", "dynamic", "any type", "any"],
    ["list(string)", "list of string", "list of string", "list(string)"],
    ["set(number)", "set of number", "set of number", "set(number)"],
    ["map(bool)", "map of bool", "map of bool", "map(bool)"],
    ["list(any)", "list of dynamic", "list of any single type", "list(any)"],
    ["map(list(string))", "map of list of string", "map of list of string", "map(list(string))"],
    ["object({b=number,a=string})", "object", "object", "object({a=string,b=number})"],
    ["object({a=optional(string)})", "object", "object", "object({a=optional(string)})"],
    ["tuple([string,number])", "tuple", "tuple", "tuple([string,number])"],
    ["list(object({a=list(string)}))", "list of object", "list of object", "list(object({a=list(string)}))"],
    ["object({})", "object", "object", "object({})"],
  ];
  it.each(cases)("%s", (src, friendly, constraint, printed) => {
    const t = ty(src);
    expect(friendlyName(t)).toBe(friendly);
    expect(friendlyNameForConstraint(t)).toBe(constraint);
    expect(typeString(t)).toBe(printed);
  });
  it("quotes attribute names that are not identifiers", () => {
    expect(typeString(objectOf({ "a b": StringType }))).toBe('object({"a b"=string})');
  });
});

describe("type equality and JSON form", () => {
  it("compares structurally, including optional markers", () => {
    expect(typeEquals(ty("list(string)"), listOf(StringType))).toBe(true);
    expect(typeEquals(ty("list(string)"), setOf(StringType))).toBe(false);
    expect(typeEquals(ty("object({a=string})"), ty("object({a=optional(string)})"))).toBe(false);
    expect(typeEquals(ty("object({a=string,b=number})"), objectOf({ b: NumberType, a: StringType }))).toBe(true);
    expect(typeEquals(ty("tuple([string])"), tupleOf([StringType, StringType]))).toBe(false);
    expect(typeEquals(mapOf(DynamicPseudoType), ty("map(any)"))).toBe(true);
  });
  const json: Array<[string, string]> = [
    ["string", '"string"'],
    ["any", '"dynamic"'],
    ["list(number)", '["list","number"]'],
    ["map(set(bool))", '["map",["set","bool"]]'],
    ["object({b=string,a=number})", '["object",{"a":"number","b":"string"}]'],
    ["object({a=optional(string),b=number})", '["object",{"a":"string","b":"number"},["a"]]'],
    ["tuple([string,list(any)])", '["tuple",["string",["list","dynamic"]]]'],
  ];
  it.each(json)("%s ↔ %s", (src, want) => {
    expect(marshalType(ty(src))).toBe(want);
    const back = typeFromJSON(JSON.parse(want));
    expect(back.ok && typeEquals(back.type, ty(src))).toBe(true);
  });
  it("rejects bad JSON types", () => {
    expect(typeFromJSON("strin")).toEqual({ ok: false, error: 'invalid primitive type name "strin"' });
    expect(typeFromJSON(["list"]).ok).toBe(false);
    expect(typeFromJSON(["object", { a: "string" }, ["b"]]).ok).toBe(false);
  });
});

describe("type constraint decoding", () => {
  const errors: Array<[string, string]> = [
    ["strin", 'The keyword "strin" is not a valid type specification.'],
    ["list", "The list type constructor requires one argument specifying the element type."],
    ["map(string, number)", "The map type constructor requires one argument specifying the element type."],
    ["optional(string)", 'Keyword "optional" is valid only as a modifier for object type attributes.'],
    ["list(optional(string))", 'Keyword "optional" is valid only as a modifier for object type attributes.'],
    ["object(string)", "Object type constructor requires a map whose keys are attribute names and whose values are the corresponding attribute types."],
    ["object({a=optional(string, 1, 2)})", "Optional attribute modifier expects at most two arguments: the attribute type, and a default value."],
    ["string(1)", 'Primitive type keyword "string" does not expect arguments.'],
    ["tuple(string)", "Tuple type constructor requires a list of element types."],
  ];
  it.each(errors)("%s is rejected", (src, detail) => {
    const r = typeConstraintFromText(src);
    expect(r.diagnostics.map((d) => d.detail)).toContain(detail);
  });
  it("reports a default that does not fit the attribute type", () => {
    const r = typeConstraintFromText('object({a=optional(number, "x")})');
    expect(r.diagnostics.map(({ summary, detail }) => ({ summary, detail }))).toEqual([
      {
        summary: "Invalid default value for optional attribute",
        detail: "This default value is not compatible with the attribute's type constraint: a number is required.",
      },
    ]);
  });
  it("converts defaults to the attribute type", () => {
    const r = typeConstraintFromText('object({a=optional(number, "5")})');
    expect(r.diagnostics).toEqual([]);
    expect(show(r.defaults?.defaultValues.get("a") as Value)).toBe("5");
  });
  it("has no defaults structure when nothing has a default", () => {
    expect(typeConstraintFromText("object({a=optional(string), b=list(number)})").defaults).toBeUndefined();
  });
  it("parses text with quoted keys, colons and newlines", () => {
    const p = parseConstraintText('object({\n  "a" : string\n  b = list(number)\n})');
    expect(p.error).toBeUndefined();
    expect(typeString(typeConstraintWithDefaults(p.expr as never).type)).toBe("object({a=string,b=list(number)})");
  });
  it("reports text syntax errors", () => {
    expect(typeConstraintFromText("list(string").diagnostics[0]?.detail).toMatch(/expected/);
  });
});

/** Applies defaults then converts, as OpenTofu does for input variables. */
function prepare(typeSrc: string, v: Value): string {
  const c = typeConstraintFromText(typeSrc);
  expect(c.diagnostics).toEqual([]);
  const withDefaults = v.kind === "null" ? v : applyDefaults(c.defaults, v);
  const r = convert(withDefaults, c.type);
  return r.ok ? show(r.value) : `error: ${formatPathError(r.error)}`;
}

const A = `object({
  name = string
  size = optional(number, 10)
  tags = optional(map(string), {})
  nested = optional(object({
    enabled = optional(bool, true)
    mode    = optional(string, "auto")
  }), {})
})`;
const B = "list(object({name=string, port=optional(number, 80), opts=optional(list(string))}))";
const C = 'map(object({x=optional(string, "dx"), y=optional(object({z=optional(number, 7)}), {})}))';
const D = 'object({a=optional(string, "z")})';
const E = "set(object({n=string, v=optional(number, 1)}))";

// Each expectation is what `terraform console` printed for `var.<name>` with the same type and input.
describe("optional attribute defaults (terraform console answers)", () => {
  it("fills absent attributes, including nested object defaults", () => {
    expect(prepare(A, lit({ name: "x" }))).toBe(
      'object{name: "x", nested: object{enabled: true, mode: "auto"}, size: 10, tags: map<map(string)>{}}',
    );
  });
  it("fills null attributes and merges a partial nested object", () => {
    expect(prepare(A, lit({ name: "x", nested: { mode: "m" }, size: nullVal(DynamicPseudoType) }))).toBe(
      'object{name: "x", nested: object{enabled: true, mode: "m"}, size: 10, tags: map<map(string)>{}}',
    );
  });
  it("applies element defaults in lists; optional without default is null", () => {
    expect(prepare(B, lit([{ name: "w" }, { name: "v", port: 8080, opts: ["q"] }]))).toBe(
      'list(object{name: "w", opts: null(list(string)), port: 80}, object{name: "v", opts: list("q"), port: 8080})',
    );
  });
  it("an empty list stays empty", () => {
    expect(prepare(B, lit([]))).toBe("list<list(object({name=string,opts=list(string),port=number}))>()");
  });
  it("applies defaults in map elements, at two levels", () => {
    expect(prepare(C, lit({ k: {} }))).toBe('map{"k": object{x: "dx", y: object{z: 7}}}');
    expect(prepare(C, lit({ p: { y: {} }, q: { x: "X", y: { z: 1 } } }))).toBe(
      'map{"p": object{x: "dx", y: object{z: 7}}, "q": object{x: "X", y: object{z: 1}}}',
    );
  });
  it("a null variable value stays null", () => {
    expect(prepare(D, nullVal(DynamicPseudoType))).toBe("null(object({a=string}))");
  });
  it("an empty object gets its defaults", () => {
    expect(prepare(D, lit({}))).toBe('object{a: "z"}');
  });
  it("applies defaults to set elements (then orders the set)", () => {
    expect(prepare(E, lit([{ n: "b" }, { n: "a", v: 3 }]))).toBe('set(object{n: "a", v: 3}, object{n: "b", v: 1})');
  });
  it("leaves unknown values alone", () => {
    const c = typeConstraintFromText(D);
    expect(show(applyDefaults(c.defaults, unknownVal(ty("object({})"))))).toBe("unknown(object({}))");
  });
  it("keeps marks on the object it fills in", () => {
    const c = typeConstraintFromText(D);
    expect(show(applyDefaults(c.defaults, mark(lit({}), SENSITIVE)))).toBe('object{a: "z"}@sensitive');
  });
  it("still reports missing required attributes after defaults", () => {
    expect(prepare(A, lit({ size: 1 }))).toBe('error: attribute "name" is required');
  });
  it("applies defaults inside tuple-typed constraints by position", () => {
    expect(prepare('tuple([object({a=optional(string,"x")}), string])', lit([{}, "s"]))).toBe('tuple(object{a: "x"}, "s")');
  });
  it("defaults for objects nested in lists inside default values", () => {
    expect(prepare('object({l=optional(list(object({v=optional(number,2)})), [{}])})', lit({}))).toBe(
      "object{l: list(object{v: 2})}",
    );
  });
});

describe("constraint structure input (what the HCL decoder will pass)", () => {
  it("decodes a structure built by hand", () => {
    const r = typeConstraintWithDefaults({
      kind: "call",
      name: "object",
      args: [
        {
          kind: "object",
          attrs: [
            { name: "a", type: { kind: "call", name: "optional", args: [{ kind: "keyword", name: "string" }, { kind: "value", value: lit("hi") }] } },
            { name: "b", type: { kind: "call", name: "list", args: [{ kind: "keyword", name: "number" }] } },
          ],
        },
      ],
    });
    expect(r.diagnostics).toEqual([]);
    expect(typeString(r.type)).toBe("object({a=optional(string),b=list(number)})");
    expect(show(applyDefaults(r.defaults, lit({ b: [1] })))).toBe('object{a: "hi", b: tuple(1)}');
  });
  it("types with defaults compare as their plain types", () => {
    const t: Type = typeConstraintFromText('object({a=optional(string,"x")})').type;
    expect(typeEquals(t, ty("object({a=optional(string)})"))).toBe(true);
  });
});


describe("defaults keep collection kinds when elements still unify (HCL Defaults.Apply)", () => {
  const c = typeConstraintFromText("object({name=string, port=optional(number, 80)})");
  const coll = (t: string) => typeConstraintFromText(t).defaults;
  const el = (name: string, port?: number) => lit({ name, port: port === undefined ? nullVal(NumberType) : numberIntVal(port) });
  it("a list stays a list", () => {
    const d = coll("list(object({name=string, port=optional(number, 80)}))");
    expect(show(applyDefaults(d, listVal([el("a"), el("b", 1)])))).toBe('list(object{name: "a", port: 80}, object{name: "b", port: 1})');
  });
  it("a set stays a set", () => {
    const d = coll("set(object({name=string, port=optional(number, 80)}))");
    expect(show(applyDefaults(d, setVal([el("a"), el("b", 1)])))).toBe('set(object{name: "a", port: 80}, object{name: "b", port: 1})');
  });
  it("a map stays a map", () => {
    const d = coll("map(object({name=string, port=optional(number, 80)}))");
    expect(show(applyDefaults(d, mapVal({ x: el("a"), y: el("b", 2) })))).toBe(
      'map{"x": object{name: "a", port: 80}, "y": object{name: "b", port: 2}}',
    );
  });
  it("a tuple stays a tuple", () => {
    const d = coll("list(object({name=string, port=optional(number, 80)}))");
    expect(show(applyDefaults(d, lit([{ name: "a" }, { name: "b", port: 1 }])))).toBe(
      'tuple(object{name: "a", port: 80}, object{name: "b", port: 1})',
    );
  });
  it("the object itself", () => {
    expect(show(applyDefaults(c.defaults, el("z")))).toBe('object{name: "z", port: 80}');
  });
});
