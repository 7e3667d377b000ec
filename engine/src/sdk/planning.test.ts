import { describe, expect, it } from "vitest";
import { NumberType, StringType, attrStep, numberIntVal, stringVal, unknownVal } from "../values/index.js";
import { fromNative, toNative, UNKNOWN } from "./native.js";
import { requiresReplace, useStateForUnknown } from "./planmodifiers.js";
import { planResourceChange, validateAttributes } from "./planning.js";
import { impliedType, type Block } from "./schema.js";
import { atLeast } from "./validators.js";

const block: Block = {
  attributes: {
    id: { type: StringType, computed: true, planModifiers: [useStateForUnknown()] },
    etag: { type: StringType, computed: true },
    size: { type: NumberType, optional: true, computed: true, default: numberIntVal(1), validators: [atLeast(1)] },
    zone: { type: StringType, required: true, planModifiers: [requiresReplace()] },
  },
  blocks: { disk: { nesting: "list", block: { attributes: { gb: { type: NumberType, required: true }, serial: { type: StringType, computed: true } } } } },
};
const t = impliedType(block);
const v = (n: Parameters<typeof fromNative>[0]) => fromNative(n, t);

describe("the SDK's default planning", () => {
  it("on create: defaults, and every computed attribute left null is unknown (nested blocks too)", () => {
    const cfg = v({ zone: "a", disk: [{ gb: 10 }] });
    const o = planResourceChange(block, v(null), cfg, cfg);
    expect(toNative(o.planned)).toEqual({ id: UNKNOWN, etag: UNKNOWN, size: 1, zone: "a", disk: [{ gb: 10, serial: UNKNOWN }] });
    expect(o.requiresReplace).toEqual([]);
  });

  it("without changes: the prior state as it is", () => {
    const prior = v({ id: "i", etag: "e", size: 1, zone: "a", disk: [{ gb: 10, serial: "s" }] });
    const o = planResourceChange(block, prior, prior, v({ zone: "a", disk: [{ gb: 10 }] }));
    expect(toNative(o.planned)).toEqual(toNative(prior));
  });

  it("on update: computed values unknown unless kept by use-state-for-unknown; requires-replace paths", () => {
    const prior = v({ id: "i", etag: "e", size: 1, zone: "a", disk: [{ gb: 10, serial: "s" }] });
    const proposed = v({ id: "i", etag: "e", size: 1, zone: "b", disk: [{ gb: 10, serial: "s" }] });
    const o = planResourceChange(block, prior, proposed, v({ zone: "b", disk: [{ gb: 10 }] }));
    expect(toNative(o.planned)).toEqual({ id: "i", etag: UNKNOWN, size: 1, zone: "b", disk: [{ gb: 10, serial: UNKNOWN }] });
    expect(o.requiresReplace).toEqual([[attrStep("zone")]]);
  });

  it("an unknown configured value still requires replacement", () => {
    const prior = v({ id: "i", etag: "e", size: 1, zone: "a", disk: [] });
    const unknownZone = v({ id: "i", etag: "e", size: 1, zone: unknownVal(StringType), disk: [] });
    const o = planResourceChange(block, prior, unknownZone, v({ zone: unknownVal(StringType), disk: [] }));
    expect(o.requiresReplace).toEqual([[attrStep("zone")]]);
  });

  it("runs validators on known values only", () => {
    expect(validateAttributes(block, v({ zone: "a", size: 0 })).map((d) => d.detail)).toEqual(["Attribute size value must be at least 1, got: 0"]);
    expect(validateAttributes(block, v({ zone: stringVal("a"), size: unknownVal(NumberType) }))).toEqual([]);
  });
});
