import { describe, expect, it } from "vitest";
import { attribute, block, nestedBlock } from "../providers/index.js";
import { StringType, listVal, nullVal, objectVal, rawEquals, stringVal, unknownVal, type Value } from "../values/index.js";
import { proposedNew } from "./objchange.js";

const schema = block(
  {
    name: attribute({ type: StringType, required: true }),
    opt_comp: attribute({ type: StringType, optional: true, computed: true }),
    id: attribute({ type: StringType, computed: true }),
  },
  { rule: nestedBlock(block({ port: attribute({ type: StringType, optional: true }), arn: attribute({ type: StringType, computed: true }) }), "list") },
);

const obj = (name: Value, optComp: Value, id: Value, rules: Value): Value => objectVal({ name, opt_comp: optComp, id, rule: rules });
const rule = (port: string, arn: Value) => objectVal({ port: stringVal(port), arn });
const S = StringType;

describe("proposedNew (objchange.ProposedNew)", () => {
  it("takes configuration for a create; computed attributes stay null", () => {
    const config = obj(stringVal("n"), nullVal(S), nullVal(S), listVal([rule("80", nullVal(S))]));
    const got = proposedNew(schema, nullVal(config.type), config);
    expect(rawEquals(got, config)).toBe(true);
  });

  it("keeps computed values from the prior state; optional+computed only where config is null", () => {
    const prior = obj(stringVal("old"), stringVal("pc"), stringVal("id-1"), listVal([rule("80", stringVal("arn-1"))]));
    const config = obj(stringVal("new"), nullVal(S), nullVal(S), listVal([rule("81", nullVal(S))]));
    const got = proposedNew(schema, prior, config);
    const want = obj(stringVal("new"), stringVal("pc"), stringVal("id-1"), listVal([rule("81", stringVal("arn-1"))]));
    expect(rawEquals(got, want)).toBe(true);
    const set = obj(stringVal("new"), stringVal("mine"), nullVal(S), listVal([rule("81", nullVal(S))]));
    expect(rawEquals(proposedNew(schema, prior, set), obj(stringVal("new"), stringVal("mine"), stringVal("id-1"), listVal([rule("81", stringVal("arn-1"))])))).toBe(true);
  });

  it("returns the prior value for a null (destroy) or unknown configuration", () => {
    const prior = obj(stringVal("old"), stringVal("pc"), stringVal("id-1"), listVal([rule("80", stringVal("arn-1"))]));
    expect(proposedNew(schema, prior, nullVal(prior.type))).toBe(prior);
    expect(proposedNew(schema, prior, unknownVal(prior.type))).toBe(prior);
  });
});
