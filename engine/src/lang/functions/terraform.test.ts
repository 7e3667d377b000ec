import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DynamicPseudoType, SENSITIVE, StringType, callFunction, formatValue, mark, numberIntVal, objectVal, stringVal, tupleVal, unknownVal, type Value } from "../../values/index.js";
import { answerIn, expectations, type Differences } from "./oraclefs.testkit.js";
import { testContext, type OracleFile } from "./oracle.testkit.js";
import { terraformFunctions } from "./terraform.js";

const read = (name: string) => JSON.parse(readFileSync(new URL(`./testdata/${name}`, import.meta.url), "utf8")) as unknown;
const oracle = read("terraform.terraform.json") as OracleFile;
const differences = read("terraform.opentofu.json") as Differences;

describe("provider::terraform functions match terraform console (OpenTofu where it differs)", () => {
  it.each(expectations(oracle, differences))("%s", (expr, want) => {
    expect(answerIn(testContext, expr)).toEqual(want);
  });
});

function call(name: string, ...args: Value[]) {
  const full = `provider::terraform::${name}`;
  const fn = terraformFunctions(testContext)[full];
  if (!fn) throw new Error(`no function ${full}`);
  return callFunction(full, fn, args);
}

describe("builtin provider function rules", () => {
  it("registers the names OpenTofu uses", () => {
    expect(Object.keys(terraformFunctions(testContext)).sort()).toEqual([
      "provider::terraform::decode_tfvars",
      "provider::terraform::encode_expr",
      "provider::terraform::encode_tfvars",
    ]);
  });
  it("an unknown argument gives an unknown result, without refinement", () => {
    const r = call("encode_expr", unknownVal(DynamicPseudoType));
    expect(r.ok && r.value.kind === "unknown" && !r.value.refinement.notNull).toBe(true);
    const d = call("decode_tfvars", unknownVal(StringType));
    expect(d.ok && d.value.kind === "unknown").toBe(true);
  });
  it("a value that is only partly known cannot be encoded", () => {
    const partly = tupleVal([numberIntVal(1), unknownVal(StringType)]);
    expect(call("encode_expr", partly)).toMatchObject({ ok: false, detail: 'Call to function "provider::terraform::encode_expr" failed: input is not known.' });
    expect(call("encode_tfvars", objectVal({ a: partly }))).toMatchObject({ ok: false, summary: "Error in function call" });
  });
  it("marks on the argument move to the result", () => {
    const r = call("encode_tfvars", objectVal({ a: mark(stringVal("x"), SENSITIVE) }));
    expect(r.ok && r.value.kind === "string" && r.value.value === 'a = "x"\n' && r.value.marks.has(SENSITIVE)).toBe(true);
  });
  it("decode_tfvars reads what encode_tfvars writes", () => {
    const v = objectVal({ name: stringVal("a\"b${c}"), list: tupleVal([numberIntVal(1), objectVal({ "k-1": stringVal("v") })]) });
    const enc = call("encode_tfvars", v);
    if (!enc.ok) throw new Error(enc.detail);
    const dec = call("decode_tfvars", enc.value);
    expect(dec.ok && formatValue(dec.value)).toBe(formatValue(v));
  });
  it("decode_tfvars reports every error of an attribute, with ranges from line 0", () => {
    const r = call("decode_tfvars", stringVal("ok = 1\nbad = [x,\n  y]"));
    expect(r).toMatchObject({
      ok: false,
      detail:
        'Call to function "provider::terraform::decode_tfvars" failed: failed to decode tfvars content\n:1,8-9: Variables not allowed; Variables may not be used here.\n:2,3-4: Variables not allowed; Variables may not be used here..',
    });
  });
});
