// Decoding legacy flatmap attributes against a schema type (hcl2shim.HCL2ValueFromFlatmap), and
// decodeObject using it for objects no provider has upgraded yet.
import { describe, expect, it } from "vitest";
import {
  BoolType,
  DynamicPseudoType,
  NumberType,
  StringType,
  listOf,
  listVal,
  listValEmpty,
  mapOf,
  mapVal,
  mapValEmpty,
  nullVal,
  numberIntVal,
  objectOf,
  objectVal,
  rawEquals,
  setOf,
  setVal,
  setValEmpty,
  stringVal,
  True,
  tupleOf,
  tupleVal,
  unknownVal,
  type Type,
  type Value,
} from "../values/index.js";
import { UNKNOWN_VARIABLE_VALUE, valueFromFlatmap } from "./flatmap.js";
import { decodeObject, newObjectSrc } from "./index.js";

function decode(flat: Record<string, string>, type: Type): Value | string {
  const r = valueFromFlatmap(new Map(Object.entries(flat)), type);
  return r.ok ? r.value : r.error;
}

function expectValue(got: Value | string, want: Value): void {
  expect(typeof got === "string" ? got : rawEquals(got, want) ? "equal" : got).toBe("equal");
}

describe("valueFromFlatmap", () => {
  it("decodes primitives by the schema's types, absent ones as null", () => {
    const ty = objectOf({ id: StringType, n: NumberType, b: BoolType, missing: StringType });
    expectValue(decode({ id: "x", n: "42", b: "true" }, ty), objectVal({ id: stringVal("x"), n: numberIntVal(42), b: True, missing: nullVal(StringType) }));
  });

  it("tells null collections (no count) from empty ones", () => {
    const ty = objectOf({ l: listOf(StringType), m: mapOf(StringType), s: setOf(StringType) });
    expectValue(decode({}, ty), objectVal({ l: nullVal(listOf(StringType)), m: nullVal(mapOf(StringType)), s: nullVal(setOf(StringType)) }));
    expectValue(
      decode({ "l.#": "0", "m.%": "0", "s.#": "0" }, ty),
      objectVal({ l: listValEmpty(StringType), m: mapValEmpty(StringType), s: setValEmpty(StringType) }),
    );
  });

  it("decodes lists by index, maps by the rest of the key, sets by hash keys", () => {
    const ty = objectOf({ l: listOf(StringType), m: mapOf(StringType), s: setOf(StringType), nested: listOf(objectOf({ port: NumberType, tags: mapOf(StringType) })) });
    const got = decode(
      {
        "l.#": "2",
        "l.0": "a",
        "l.1": "b",
        "m.%": "2",
        "m.a.b": "dotted",
        "m.c": "d",
        "s.#": "2",
        "s.1234": "x",
        "s.5678": "y",
        "nested.#": "1",
        "nested.0.port": "22",
        "nested.0.tags.%": "1",
        "nested.0.tags.k": "v",
      },
      ty,
    );
    expectValue(
      got,
      objectVal({
        l: listVal([stringVal("a"), stringVal("b")]),
        m: mapVal({ "a.b": stringVal("dotted"), c: stringVal("d") }),
        s: setVal([stringVal("x"), stringVal("y")]),
        nested: listVal([objectVal({ port: numberIntVal(22), tags: mapVal({ k: stringVal("v") }) })]),
      }),
    );
  });

  it("decodes a set counted 1 with no keys as one empty element", () => {
    const ety = objectOf({ a: StringType });
    expectValue(decode({ "s.#": "1" }, objectOf({ s: setOf(ety) })), objectVal({ s: setVal([objectVal({ a: nullVal(StringType) })]) }));
  });

  it("decodes tuples, checking the count", () => {
    const ty = objectOf({ t: tupleOf([StringType, NumberType]) });
    expectValue(decode({ "t.#": "2", "t.0": "a", "t.1": "1" }, ty), objectVal({ t: tupleVal([stringVal("a"), numberIntVal(1)]) }));
    expect(decode({ "t.#": "1", "t.0": "a" }, ty)).toBe('wrong number of values for "t." in state: got 1, but need 2');
  });

  it("reads the SDK's unknown marker as unknown", () => {
    const ty = objectOf({ id: StringType, l: listOf(StringType) });
    expectValue(decode({ id: UNKNOWN_VARIABLE_VALUE, "l.#": UNKNOWN_VARIABLE_VALUE }, ty), objectVal({ id: unknownVal(StringType), l: unknownVal(listOf(StringType)) }));
  });

  it("fails as OpenTofu does on what flatmap cannot hold or tampered values", () => {
    expect(decode({ d: "x" }, objectOf({ d: DynamicPseudoType }))).toBe("cannot decode dynamic from flatmap");
    expect(decode({ n: "abc" }, objectOf({ n: NumberType }))).toBe('invalid value for "n" in state: a number is required');
    expect(decode({ "l.#": "x" }, objectOf({ l: listOf(StringType) }))).toBe('invalid count value for "l." in state: strconv.Atoi: parsing "x": invalid syntax');
  });
});

describe("decodeObject of a flatmap object", () => {
  it("decodes it against the schema type (show, state show, references)", () => {
    const src = newObjectSrc({ attrsFlat: new Map([["id", "1"], ["triggers.%", "1"], ["triggers.k", "v"]]) });
    const d = decodeObject(src, objectOf({ id: StringType, triggers: mapOf(StringType) }));
    expect(d.ok && rawEquals(d.value.value, objectVal({ id: stringVal("1"), triggers: mapVal({ k: stringVal("v") }) }))).toBe(true);
  });
});
