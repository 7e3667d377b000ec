// The functions of OpenTofu's builtin `terraform` provider (terraform.io/builtin/terraform),
// keyed by the names configurations call them by: provider::terraform::encode_tfvars,
// provider::terraform::decode_tfvars and provider::terraform::encode_expr. As provider
// functions they take no null, unknown or marked arguments (cty strips marks and puts them back
// on the result; an unknown argument gives an unknown result) and their errors are the
// provider's own texts. Which modules may call them (`required_providers`) is the evaluator's
// business.
import { formatRange, parseConfig, type Diagnostic } from "../../hcl/index.js";
import {
  DynamicPseudoType,
  Func,
  StringType,
  asString,
  callError,
  isWhollyKnown,
  objectVal,
  staticReturnType,
  stringVal,
  type FunctionResult,
  type Value,
} from "../../values/index.js";
import { EvalContext } from "../eval/context.js";
import { evaluate } from "../eval/expression.js";
import type { FunctionContext } from "./context.js";
import { UnknownValueError, encodeAttributes, encodeExpression, validIdentifier } from "./hclencode.js";

function ok(value: Value): FunctionResult<Value> {
  return { ok: true, value };
}

/** hcl.Diagnostic's Error(): "<range>: <summary>; <detail>". */
function diagnosticError(d: Diagnostic): string {
  return `${d.subject ? formatRange(d.subject) : "<nil>"}: ${d.summary}; ${d.detail}`;
}

/** errors.Join of the provider's error and the HCL errors, one per line. */
function decodeFailure(diags: readonly Diagnostic[]): FunctionResult<Value> {
  const lines = ["failed to decode tfvars content", ...diags.filter((d) => d.severity === "error").map(diagnosticError)];
  return callError(lines.join("\n"));
}

// The provider parses its argument as a file named "" starting at line 0, column 0.
const TFVARS_START = { line: 0, column: 0, byte: 0 };

const decodeTfvars = new Func({
  description: "Decode a TFVars file content into an object",
  params: [{ name: "content", type: StringType }],
  type: staticReturnType(DynamicPseudoType),
  impl: (args) => {
    const parsed = parseConfig(asString(args[0] as Value), "", TFVARS_START);
    if (parsed.diagnostics.some((d) => d.severity === "error")) return decodeFailure(parsed.diagnostics);
    const body = parsed.result.body;
    const firstBlock = body.blocks[0];
    if (firstBlock) {
      return decodeFailure([{ severity: "error", summary: `Unexpected ${JSON.stringify(firstBlock.type)} block`, detail: "Blocks are not allowed here.", subject: firstBlock.typeRange }]);
    }
    // Evaluated without an evaluation context: literals and operators only, as HCL's Value(nil).
    const noContext = new EvalContext(undefined, undefined);
    const vals = new Map<string, Value>();
    for (const attr of body.attributes) {
      const r = evaluate(attr.expr, noContext);
      if (r.diagnostics.some((d) => d.severity === "error")) return decodeFailure(r.diagnostics);
      vals.set(attr.name, r.value);
    }
    return ok(objectVal(vals));
  },
});

const encodeTfvars = new Func({
  description: "Encode an object into a string with the same format as a TFVars file",
  params: [{ name: "input", type: DynamicPseudoType }],
  type: staticReturnType(StringType),
  impl: (args) => {
    // Null and unknown inputs never get here: provider function parameters refuse them.
    const input = args[0] as Value;
    if (input.kind !== "object") return callError("invalid input: must be an object");
    const attrs: Array<[string, Value]> = [];
    for (const [name, v] of input.attrs) {
      if (!validIdentifier(name)) return callError(`invalid input: object key: ${name} - must be a valid identifier`);
      attrs.push([name, v]);
    }
    try {
      return ok(stringVal(encodeAttributes(attrs)));
    } catch (e) {
      // hclwrite panics on unknown values; OpenTofu reports the recovered panic.
      if (e instanceof UnknownValueError) return callError(`panic in function implementation: ${e.message}`);
      throw e;
    }
  },
});

const encodeExpr = new Func({
  description: "Takes an arbitrary expression and converts it into a string with valid OpenTofu syntax",
  params: [{ name: "expr", type: DynamicPseudoType }],
  type: staticReturnType(StringType),
  impl: (args) => {
    const v = args[0] as Value;
    if (!isWhollyKnown(v)) return callError("input is not known");
    return ok(stringVal(encodeExpression(v)));
  },
});

export function terraformFunctions(_ctx: FunctionContext): Record<string, Func> {
  return {
    "provider::terraform::decode_tfvars": decodeTfvars,
    "provider::terraform::encode_tfvars": encodeTfvars,
    "provider::terraform::encode_expr": encodeExpr,
  };
}
