// A small expression evaluator for the function-library tests: literals, templates, tuples,
// objects, operators, indexing, named values and function calls through `callFunction` (so
// argument conversion and OpenTofu's error texts are exercised). It stands in for the real
// evaluator so these modules can be checked against `terraform console` answers on their own.
// `tolist`/`toset`/`tomap`/`tostring`/`tonumber`/`tobool` and `sensitive` are provided here only
// as far as the tests need them.
import { parseExpression, type Expression } from "../../hcl/index.js";
import {
  BoolType,
  DynamicPseudoType,
  NumberType,
  SENSITIVE,
  StringType,
  binaryOp,
  boolVal,
  callFunction,
  convert,
  formatPathError,
  formatValue,
  getAttr,
  index,
  listOf,
  mapOf,
  mark,
  nullVal,
  objectVal,
  parseNumberVal,
  setOf,
  stringVal,
  tupleVal,
  unaryOp,
  type Func,
  type Type,
  type Value,
} from "../../values/index.js";

export type EvalResult = { ok: true; value: Value } | { ok: false; summary: string; detail: string };

class EvalFailure extends Error {
  constructor(
    readonly summary: string,
    readonly detail: string,
  ) {
    super(`${summary}: ${detail}`);
  }
}

const conversions: Record<string, Type> = {
  tolist: listOf(DynamicPseudoType),
  toset: setOf(DynamicPseudoType),
  tomap: mapOf(DynamicPseudoType),
  tostring: StringType,
  tonumber: NumberType,
  tobool: BoolType,
};

export function evaluate(src: string, functions: ReadonlyMap<string, Func>, vars: Record<string, Value> = {}): EvalResult {
  const parsed = parseExpression(src, "<test>");
  const firstError = parsed.diagnostics.find((d) => d.severity === "error");
  if (firstError) return { ok: false, summary: firstError.summary, detail: firstError.detail ?? "" };
  try {
    return { ok: true, value: evalExpr(parsed.result, functions, vars) };
  } catch (e) {
    if (e instanceof EvalFailure) return { ok: false, summary: e.summary, detail: e.detail };
    throw e;
  }
}

/** The result as `terraform console` prints it, or its error as "summary: detail". */
export function evaluateToText(src: string, functions: ReadonlyMap<string, Func>, vars: Record<string, Value> = {}): string {
  const r = evaluate(src, functions, vars);
  return r.ok ? formatValue(r.value) : `${r.summary}: ${r.detail}`;
}

function evalExpr(e: Expression, fns: ReadonlyMap<string, Func>, vars: Record<string, Value>): Value {
  const ev = (x: Expression) => evalExpr(x, fns, vars);
  switch (e.kind) {
    case "Literal": {
      const l = e.value;
      if (l.type === "number") return parseNumberVal(l.text) ?? nullVal(NumberType);
      if (l.type === "string") return stringVal(l.value);
      if (l.type === "bool") return boolVal(l.value);
      return nullVal(DynamicPseudoType);
    }
    case "Template": {
      let out = "";
      for (const p of e.parts) {
        const c = convert(ev(p), StringType);
        if (!c.ok || c.value.kind !== "string") throw new EvalFailure("Invalid template interpolation value", "unsupported in tests");
        out += c.value.value;
      }
      return stringVal(out);
    }
    case "TemplateWrap":
      return ev(e.wrapped);
    case "Parentheses":
      return ev(e.expression);
    case "Tuple":
      return tupleVal(e.exprs.map(ev));
    case "Object": {
      const attrs = new Map<string, Value>();
      for (const item of e.items) {
        const k = item.key.wrapped;
        let name: string;
        if (!item.key.forceNonLiteral && k.kind === "ScopeTraversal" && k.traversal.length === 1 && k.traversal[0]?.kind === "Root") {
          name = k.traversal[0].name;
        } else {
          const kv = convert(ev(k), StringType);
          if (!kv.ok || kv.value.kind !== "string") throw new EvalFailure("Incorrect key type", "unsupported in tests");
          name = kv.value.value;
        }
        attrs.set(name, ev(item.value));
      }
      return objectVal(attrs);
    }
    case "UnaryOp": {
      const r = unaryOp(e.op, ev(e.operand));
      if (!r.ok) throw new EvalFailure(r.summary, r.detail);
      return r.value;
    }
    case "BinaryOp": {
      const r = binaryOp(e.op, ev(e.lhs), ev(e.rhs));
      if (!r.ok) throw new EvalFailure(r.summary, r.detail);
      return r.value;
    }
    case "Index": {
      const r = index(ev(e.collection), ev(e.key));
      if (!r.ok) throw new EvalFailure(r.summary, r.detail);
      return r.value;
    }
    case "ScopeTraversal": {
      const [root, ...rest] = e.traversal;
      if (!root || root.kind !== "Root") throw new EvalFailure("Invalid reference", "unsupported in tests");
      let v = vars[root.name];
      if (!v) throw new EvalFailure("Unknown variable", `There is no variable named "${root.name}".`);
      for (const step of rest) {
        if (step.kind === "Attr") {
          const r = getAttr(v, step.name);
          if (!r.ok) throw new EvalFailure(r.summary, r.detail);
          v = r.value;
        } else if (step.kind === "Index") {
          const key = step.key.type === "number" ? (parseNumberVal(step.key.text) as Value) : step.key.type === "string" ? stringVal(step.key.value) : nullVal(DynamicPseudoType);
          const r = index(v, key);
          if (!r.ok) throw new EvalFailure(r.summary, r.detail);
          v = r.value;
        }
      }
      return v;
    }
    case "FunctionCall": {
      let args = e.args.map(ev);
      if (e.expandFinal) {
        const last = args[args.length - 1] as Value;
        if (last.kind !== "list" && last.kind !== "set" && last.kind !== "tuple") {
          throw new EvalFailure("Invalid expanding argument value", "The expanding argument (indicated by ...) must be of a tuple, list, or set type.");
        }
        args = [...args.slice(0, -1), ...last.elements];
      }
      // The stand-ins below apply only where the function table lacks the real function.
      const fn = fns.get(e.name);
      const conv = fn ? undefined : conversions[e.name];
      if (conv) {
        const c = convert(args[0] as Value, conv);
        if (!c.ok) throw new EvalFailure("Invalid function argument", `Invalid value for "v" parameter: ${formatPathError(c.error)}.`);
        return c.value;
      }
      if (!fn && e.name === "sensitive") return mark(args[0] as Value, SENSITIVE);
      if (!fn) throw new EvalFailure("Call to unknown function", `There is no function named "${e.name}".`);
      const r = callFunction(e.name, fn, args);
      if (!r.ok) throw new EvalFailure(r.summary, r.detail);
      return r.value;
    }
    case "Conditional": {
      const c = ev(e.condition);
      return c.kind === "bool" && c.value ? ev(e.trueResult) : ev(e.falseResult);
    }
    default:
      throw new EvalFailure("Unsupported expression", `${e.kind} is not supported by the test evaluator`);
  }
}
