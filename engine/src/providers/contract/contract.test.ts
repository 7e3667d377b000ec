import { describe, expect, it } from "vitest";
import {
  BoolType,
  DynamicPseudoType,
  NumberType,
  SENSITIVE,
  StringType,
  listOf,
  listVal,
  listValEmpty,
  mark,
  nullVal,
  numberIntVal,
  objectVal,
  refine,
  setOf,
  setVal,
  stringVal,
  True,
  unknownVal,
  type Value,
} from "../../values/index.js";
import { attribute, block, impliedType, nestedBlock, type Block } from "../schema/index.js";
import { assertObjectCompatible, assertPlanValid, checkApplyResult, checkFinalPlan, checkPlan, formatErrorPrefixed, valueGoString } from "./index.js";
import { formatPathError } from "../../values/index.js";

const s = (x: string): Value => stringVal(x);
const nullS = nullVal(StringType);
const unkS = unknownVal(StringType);

const schema: Block = block(
  {
    id: attribute({ type: StringType, computed: true }),
    name: attribute({ type: StringType, required: true }),
    opt: attribute({ type: StringType, optional: true }),
    oc: attribute({ type: StringType, optional: true, computed: true }),
    secret: attribute({ type: StringType, optional: true, sensitive: true }),
    wo: attribute({ type: StringType, optional: true, writeOnly: true }),
  },
  {
    rule: nestedBlock(block({ port: attribute({ type: NumberType, optional: true }), cidr: attribute({ type: StringType, optional: true, computed: true }) }), "list"),
  },
);
const ty = impliedType(schema);

const ruleTy = impliedType(schema.blockTypes.get("rule")?.block ?? block({}));
function rule(port: number, cidr: Value = nullS): Value {
  return objectVal({ port: numberIntVal(port), cidr });
}
function obj(o: Partial<Record<"id" | "name" | "opt" | "oc" | "secret" | "wo", Value>> & { rule?: Value } = {}): Value {
  return objectVal({
    id: o.id ?? nullS,
    name: o.name ?? s("n"),
    opt: o.opt ?? nullS,
    oc: o.oc ?? nullS,
    secret: o.secret ?? nullS,
    wo: o.wo ?? nullS,
    rule: o.rule ?? listValEmpty(ruleTy),
  });
}

describe("cty GoString", () => {
  it.each<[string, Value, string]>([
    ["null", nullVal(DynamicPseudoType), "cty.NullVal(cty.DynamicPseudoType)"],
    ["unknown", unkS, "cty.UnknownVal(cty.String)"],
    ["not null", refine(unkS).notNull().newValue(), "cty.UnknownVal(cty.String).RefineNotNull()"],
    ["prefix", refine(unkS).notNull().stringPrefixFull("a-").newValue(), 'cty.UnknownVal(cty.String).Refine().NotNull().StringPrefixFull("a-").NewValue()'],
    ["empty string", s(""), 'cty.StringVal("")'],
    ["int", numberIntVal(1), "cty.NumberIntVal(1)"],
    ["bool", True, "cty.True"],
    ["empty list", listValEmpty(StringType), "cty.ListValEmpty(cty.String)"],
    ["list", listVal([True]), "cty.ListVal([]cty.Value{cty.True})"],
    ["object", objectVal({ b: s("x"), a: nullVal(NumberType) }), 'cty.ObjectVal(map[string]cty.Value{"a":cty.NullVal(cty.Number), "b":cty.StringVal("x")})'],
    ["set", setVal([s("b"), s("a")]), 'cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})'],
  ])("%s", (_n, v, want) => expect(valueGoString(v)).toBe(want));
});

describe("AssertPlanValid", () => {
  const cases: Array<[string, Value, Value, Value, string[]]> = [
    ["create, computed id unknown", nullVal(ty), obj(), obj({ id: unkS }), []],
    ["create, provider fills optional+computed", nullVal(ty), obj(), obj({ id: unkS, oc: s("default") }), []],
    ["provider changes a configured value", nullVal(ty), obj({ opt: s("a") }), obj({ opt: s("b") }), ['.opt: planned value cty.StringVal("b") does not match config value cty.StringVal("a")']],
    ["provider sets a non-computed attribute", nullVal(ty), obj(), obj({ opt: s("x") }), ['.opt: planned value cty.StringVal("x") for a non-computed attribute']],
    ["sensitive attribute keeps its value out of the message", nullVal(ty), obj({ secret: s("a") }), obj({ secret: s("b") }), [".secret: sensitive planned value does not match config value"]],
    ["prior value may stand in for an equivalent config value", obj({ opt: s("A") }), obj({ opt: s("a") }), obj({ opt: s("A") }), []],
    [
      "neither config nor prior",
      obj({ opt: s("old") }),
      obj({ opt: s("a") }),
      obj({ opt: s("b") }),
      ['.opt: planned value cty.StringVal("b") does not match config value cty.StringVal("a") nor prior value cty.StringVal("old")'],
    ],
    ["write-only may be planned null", nullVal(ty), obj({ wo: s("pw") }), obj({ wo: nullS }), []],
    ["planned null but config wants it", nullVal(ty), obj(), nullVal(ty), ["planned for absence but config wants existence"]],
    ["planned something for a destroy", obj(), nullVal(ty), obj(), ["planned for existence but config wants absence"]],
    ["block count changed", nullVal(ty), obj({ rule: listVal([rule(1)]) }), obj({ rule: listVal([rule(1), rule(2)]) }), [".rule: block count in plan (2) disagrees with count in config (1)"]],
    ["computed inside a block", nullVal(ty), obj({ rule: listVal([rule(1)]) }), obj({ rule: listVal([rule(1, s("0.0.0.0/0"))]) }), []],
    [
      "changed inside a block",
      nullVal(ty),
      obj({ rule: listVal([rule(1)]) }),
      obj({ rule: listVal([rule(2)]) }),
      [".rule[0].port: planned value cty.NumberIntVal(2) does not match config value cty.NumberIntVal(1)"],
    ],
    [
      "unknown block element",
      nullVal(ty),
      obj({ rule: listVal([rule(1)]) }),
      obj({ rule: listVal([unknownVal(ruleTy)]) }),
      [".rule[0]: element representing nested block must not be unknown itself; set nested attribute values to unknown instead"],
    ],
    ["null list of blocks", nullVal(ty), obj({ rule: listVal([rule(1)]) }), obj({ rule: nullVal(listOf(ruleTy)) }), [".rule: attribute representing a list of nested blocks must be empty to indicate no blocks, not null"]],
    ["refinements are ignored when comparing", nullVal(ty), obj({ opt: unkS }), obj({ opt: refine(unkS).notNull().newValue() }), []],
  ];
  it.each(cases)("%s", (_name, prior, config, planned, want) => {
    expect(assertPlanValid(schema, prior, config, planned).map(formatPathError)).toEqual(want);
  });

  it("nested attribute types (protocol 6)", () => {
    const nested = block({
      disks: attribute({
        nestedType: { nesting: "list", attributes: new Map([["size", attribute({ type: NumberType, optional: true })]]) },
        optional: true,
      }),
    });
    const nty = impliedType(nested);
    const disk = (n: number): Value => objectVal({ size: numberIntVal(n) });
    const cfg = objectVal({ disks: listVal([disk(1)]) });
    expect(assertPlanValid(nested, nullVal(nty), cfg, objectVal({ disks: listVal([disk(1), disk(2)]) })).map(formatPathError)).toEqual([
      ".disks: count in plan (cty.NumberIntVal(2)) disagrees with count in config (cty.NumberIntVal(1))",
    ]);
    expect(assertPlanValid(nested, nullVal(nty), cfg, objectVal({ disks: listVal([disk(3)]) })).map(formatPathError)).toEqual([
      ".disks[0].size: planned value cty.NumberIntVal(3) does not match config value cty.NumberIntVal(1)",
    ]);
    expect(assertPlanValid(nested, nullVal(nty), cfg, objectVal({ disks: unknownVal(listOf(disk(1).type)) })).map(formatPathError)).toEqual([".disks: planned unknown for configured value"]);
  });
});

describe("AssertObjectCompatible", () => {
  const cases: Array<[string, Value, Value, string[]]> = [
    ["unknown filled in", obj({ id: unkS }), obj({ id: s("i-1") }), []],
    ["known value changed", obj({ id: s("i-1") }), obj({ id: s("i-2") }), ['.id: was cty.StringVal("i-1"), but now cty.StringVal("i-2")']],
    ["became null", obj({ opt: s("a") }), obj(), ['.opt: was cty.StringVal("a"), but now null']],
    ["appeared", obj(), obj({ opt: s("a") }), ['.opt: was null, but now cty.StringVal("a")']],
    ["still unknown", obj({ id: s("x") }), obj({ id: unkS }), [".id: was known, but now unknown"]],
    ["sensitive", obj({ secret: s("a") }), obj({ secret: s("b") }), [".secret: inconsistent values for sensitive attribute"]],
    ["sensitive by mark", obj({ opt: mark(s("a"), SENSITIVE) }), obj({ opt: s("b") }), [".opt: inconsistent values for sensitive attribute"]],
    [
      "refinement violated",
      obj({ id: refine(unkS).notNull().stringPrefixFull("i-").newValue() }),
      obj({ id: s("x-1") }),
      ['.id: final value cty.StringVal("x-1") does not conform to planning placeholder cty.UnknownVal(cty.String).Refine().NotNull().StringPrefixFull("i-").NewValue()'],
    ],
    ["block count changed", obj({ rule: listVal([rule(1)]) }), obj({ rule: listVal([rule(1), rule(2)]) }), [".rule: block count changed from 1 to 2"]],
    ["inside a block", obj({ rule: listVal([rule(1, unkS)]) }), obj({ rule: listVal([rule(1, s("10.0.0.0/8"))]) }), []],
    ["root absent", nullVal(ty), obj(), ["root object was absent, but now present"]],
    ["root present", obj(), nullVal(ty), ["root object was present, but now absent"]],
  ];
  it.each(cases)("%s", (_name, planned, actual, want) => {
    expect(assertObjectCompatible(schema, planned, actual).map(formatPathError)).toEqual(want);
  });

  it("sets correlate elements", () => {
    const ss = block({ tags: attribute({ type: setOf(StringType), optional: true }) });
    expect(assertObjectCompatible(ss, objectVal({ tags: setVal([s("a"), unkS]) }), objectVal({ tags: setVal([s("a"), s("b")]) })).map(formatPathError)).toEqual([]);
    expect(assertObjectCompatible(ss, objectVal({ tags: setVal([s("a")]) }), objectVal({ tags: setVal([s("c")]) })).map(formatPathError)).toEqual([
      '.tags: planned set element cty.StringVal("a") does not correlate with any element in actual',
    ]);
  });
});

describe("contract diagnostics", () => {
  const providerAddr = "registry.opentofu.org/hashicorp/test";
  it("Provider produced invalid plan", () => {
    const r = checkPlan({ schema, prior: nullVal(ty), config: obj({ opt: s("a") }), planned: obj({ opt: s("b") }), providerAddr, addr: "test_thing.a" });
    expect(r.diagnostics).toEqual([
      {
        severity: "error",
        summary: "Provider produced invalid plan",
        detail:
          'Provider "registry.opentofu.org/hashicorp/test" planned an invalid value for test_thing.a.opt: planned value cty.StringVal("b") does not match config value cty.StringVal("a").\n\nThis is a bug in the provider, which should be reported in the provider\'s own issue tracker.',
      },
    ]);
    expect(checkPlan({ schema, prior: nullVal(ty), config: obj({ opt: s("a") }), planned: obj({ opt: s("b") }), providerAddr, addr: "test_thing.a", legacyTypeSystem: true }).diagnostics).toEqual([]);
  });

  it("formats a path-less error with the prefix", () => {
    expect(formatErrorPrefixed({ path: [], message: "planned for absence but config wants existence" }, "test_thing.a")).toBe("test_thing.a: planned for absence but config wants existence");
  });

  it("Provider produced inconsistent final plan", () => {
    const d = checkFinalPlan({ schema, planned: obj({ opt: s("a") }), final: obj({ opt: s("b") }), providerAddr, addr: "test_thing.a" });
    expect(d.map((x) => [x.summary, x.detail])).toEqual([
      [
        "Provider produced inconsistent final plan",
        'When expanding the plan for test_thing.a to include new values learned so far during apply, provider "registry.opentofu.org/hashicorp/test" produced an invalid new value for .opt: was cty.StringVal("a"), but now cty.StringVal("b").\n\nThis is a bug in the provider, which should be reported in the provider\'s own issue tracker.',
      ],
    ]);
  });

  it("Provider produced inconsistent result after apply", () => {
    const r = checkApplyResult({ schema, planned: obj({ id: unkS, oc: s("x") }), newState: obj({ id: s("1"), oc: s("y") }), providerAddr, addr: "test_thing.a" });
    expect(r.diagnostics.map((x) => [x.summary, x.detail])).toEqual([
      [
        "Provider produced inconsistent result after apply",
        'When applying changes to test_thing.a, provider "registry.opentofu.org/hashicorp/test" produced an unexpected new value: .oc: was cty.StringVal("x"), but now cty.StringVal("y").\n\nThis is a bug in the provider, which should be reported in the provider\'s own issue tracker.',
      ],
    ]);
  });

  it("new state must be wholly known; unknowns are saved as null", () => {
    const r = checkApplyResult({ schema, planned: obj({ id: unkS }), newState: obj({ id: unkS }), providerAddr, addr: "test_thing.a" });
    expect(r.diagnostics.map((x) => [x.summary, x.detail])).toEqual([
      [
        "Provider returned invalid result object after apply",
        "After the apply operation, the provider still indicated an unknown value for test_thing.a.id. All values must be known after apply, so this is always a bug in the provider and should be reported in the provider's own repository. OpenTofu will still save the other known object values in the state.",
      ],
    ]);
    expect(r.newState.kind === "object" && r.newState.attrs.get("id")?.kind).toBe("null");
  });

  it("bool placeholder", () => {
    const b = block({ on: attribute({ type: BoolType, computed: true }) });
    expect(assertObjectCompatible(b, objectVal({ on: unknownVal(BoolType) }), objectVal({ on: True }))).toEqual([]);
  });
});
