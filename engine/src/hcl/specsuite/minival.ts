// A deliberately tiny value model and evaluator, only for the HCL specsuite harness: the suite's
// `.hcl`, `.hcldec` and `.t` files use literals, templates, variables, operators, tuples and
// objects, and type expressions. It is self-contained so the parser can be checked on its own;
// it is to be replaced by the real evaluator (`lang`, on `values`) once that lands. Numbers follow
// cty exactly: binary floating point with a 512-bit mantissa, rounded to nearest even, held here
// as exact rationals.
import type { Expression } from "../ast.js";
import type { AnyExpression } from "../content.js";
import type { JSONValue } from "../json/parser.js";
import { parseJSONStringTemplate } from "../json/template.js";

export interface Rat {
  n: bigint;
  d: bigint;
}

export type T =
  | { k: "string" }
  | { k: "number" }
  | { k: "bool" }
  | { k: "any" }
  | { k: "list"; e: T }
  | { k: "set"; e: T }
  | { k: "map"; e: T }
  | { k: "object"; a: Map<string, T> }
  | { k: "tuple"; e: T[] };

export type V =
  | { k: "string"; s: string }
  | { k: "number"; r: Rat }
  | { k: "bool"; b: boolean }
  | { k: "null"; t: T }
  | { k: "object"; a: Map<string, V> }
  | { k: "tuple"; e: V[] }
  | { k: "map"; et: T; a: Map<string, V> }
  | { k: "list"; et: T; e: V[] };

/** A failure of the harness evaluator; the runner reports it as a failed case. */
export class EvalError extends Error {}

const ANY: T = { k: "any" };
const TWO_511 = 1n << 511n;
const TWO_512 = 1n << 512n;

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

function rat(n: bigint, d: bigint): Rat {
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const g = gcd(n, d);
  return g > 1n ? { n: n / g, d: d / g } : { n, d };
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/** Rounds to the nearest value with a 512-bit mantissa (ties to even), as big.Float does. */
export function round512(r: Rat): Rat {
  if (r.n === 0n) return { n: 0n, d: 1n };
  const neg = r.n < 0n;
  const a = neg ? -r.n : r.n;
  const b = r.d;
  let s = 511 - (bitLength(a) - bitLength(b));
  const div = (sh: number): [bigint, bigint] => (sh >= 0 ? [a << BigInt(sh), b] : [a, b << BigInt(-sh)]);
  let [x, y] = div(s);
  let q = x / y;
  if (q >= TWO_512) {
    s--;
    [x, y] = div(s);
    q = x / y;
  } else if (q < TWO_511) {
    s++;
    [x, y] = div(s);
    q = x / y;
  }
  const twice = (x - q * y) * 2n;
  if (twice > y || (twice === y && (q & 1n) === 1n)) q += 1n;
  const num = s >= 0 ? q : q << BigInt(-s);
  const den = s >= 0 ? 1n << BigInt(s) : 1n;
  return rat(neg ? -num : num, den);
}

export function parseNumber(text: string): Rat | undefined {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  if (!m || ((m[2] ?? "") === "" && (m[3] ?? "") === "")) return undefined;
  const digits = (m[2] ?? "") + (m[3] ?? "");
  const exp = Number(m[4] ?? "0") - (m[3] ?? "").length;
  let n = BigInt(digits === "" ? "0" : digits);
  if (m[1] === "-") n = -n;
  let d = 1n;
  if (exp >= 0) n *= 10n ** BigInt(exp);
  else d = 10n ** BigInt(-exp);
  return round512(rat(n, d));
}

function cmp(a: Rat, b: Rat): number {
  const l = a.n * b.d;
  const r = b.n * a.d;
  return l < r ? -1 : l > r ? 1 : 0;
}

/** Shortest decimal text that reads back as the same 512-bit value (big.Float's Text('f', -1)). */
export function numberText(r: Rat): string {
  if (r.d === 1n) return r.n.toString();
  const neg = r.n < 0n;
  const a = neg ? -r.n : r.n;
  let text = "";
  for (let frac = 1; frac <= 600; frac++) {
    const scaled = (a * 10n ** BigInt(frac) * 2n + r.d) / (2n * r.d);
    const s = scaled.toString().padStart(frac + 1, "0");
    text = `${s.slice(0, s.length - frac)}.${s.slice(s.length - frac)}`;
    const back = parseNumber(text);
    if (back && back.n === a && back.d === r.d) break;
  }
  return (neg ? "-" : "") + text;
}

export function typeOf(v: V): T {
  switch (v.k) {
    case "string":
    case "number":
    case "bool":
      return { k: v.k };
    case "null":
      return v.t;
    case "object":
      return { k: "object", a: new Map([...v.a].map(([k, x]) => [k, typeOf(x)])) };
    case "tuple":
      return { k: "tuple", e: v.e.map(typeOf) };
    case "map":
      return { k: "map", e: v.et };
    case "list":
      return { k: "list", e: v.et };
    default: {
      const never: never = v;
      return never;
    }
  }
}

export function typeEquals(a: T, b: T): boolean {
  if (a.k !== b.k) return false;
  switch (a.k) {
    case "list":
    case "set":
    case "map":
      return typeEquals(a.e, (b as typeof a).e);
    case "object": {
      const bo = b as typeof a;
      if (a.a.size !== bo.a.size) return false;
      for (const [k, t] of a.a) {
        const u = bo.a.get(k);
        if (!u || !typeEquals(t, u)) return false;
      }
      return true;
    }
    case "tuple": {
      const bt = b as typeof a;
      return a.e.length === bt.e.length && a.e.every((t, i) => typeEquals(t, bt.e[i] as T));
    }
    default:
      return true;
  }
}

export function typeString(t: T): string {
  switch (t.k) {
    case "list":
    case "set":
    case "map":
      return `${t.k}(${typeString(t.e)})`;
    case "object":
      return `object({${[...t.a].map(([k, u]) => `${k}=${typeString(u)}`).join(",")}})`;
    case "tuple":
      return `tuple([${t.e.map(typeString).join(",")}])`;
    default:
      return t.k;
  }
}

/** cty's Value.Equals: values of different types are not equal. */
export function valuesEqual(a: V, b: V): boolean {
  if (a.k === "null" || b.k === "null") return a.k === b.k;
  if (a.k !== b.k) return false;
  switch (a.k) {
    case "string":
      return a.s === (b as typeof a).s;
    case "number":
      return cmp(a.r, (b as typeof a).r) === 0;
    case "bool":
      return a.b === (b as typeof a).b;
    case "object":
    case "map": {
      const bo = b as typeof a;
      if (a.a.size !== bo.a.size) return false;
      for (const [k, x] of a.a) {
        const y = bo.a.get(k);
        if (!y || !valuesEqual(x, y)) return false;
      }
      return true;
    }
    case "tuple":
    case "list": {
      const bl = b as typeof a;
      return a.e.length === bl.e.length && a.e.every((x, i) => valuesEqual(x, bl.e[i] as V));
    }
    default:
      return false;
  }
}

export function convert(v: V, t: T): V {
  if (t.k === "any") return v;
  if (v.k === "null") return { k: "null", t };
  switch (t.k) {
    case "string":
      if (v.k === "string") return v;
      if (v.k === "number") return { k: "string", s: numberText(v.r) };
      if (v.k === "bool") return { k: "string", s: v.b ? "true" : "false" };
      break;
    case "number":
      if (v.k === "number") return v;
      if (v.k === "string") {
        const r = parseNumber(v.s);
        if (r) return { k: "number", r };
      }
      break;
    case "bool":
      if (v.k === "bool") return v;
      if (v.k === "string" && (v.s === "true" || v.s === "false")) return { k: "bool", b: v.s === "true" };
      break;
    case "map":
      if (v.k === "object" || v.k === "map") return { k: "map", et: t.e, a: new Map([...v.a].map(([k, x]) => [k, convert(x, t.e)])) };
      break;
    case "list":
    case "set":
      if (v.k === "tuple" || v.k === "list") return { k: "list", et: t.e, e: v.e.map((x) => convert(x, t.e)) };
      break;
    case "object":
      if (v.k === "object" || v.k === "map") {
        const out = new Map<string, V>();
        for (const [k, at] of t.a) {
          const x = v.a.get(k);
          out.set(k, x ? convert(x, at) : { k: "null", t: at });
        }
        for (const k of v.a.keys()) if (!t.a.has(k)) throw new EvalError(`unexpected attribute ${JSON.stringify(k)}`);
        return { k: "object", a: out };
      }
      break;
    case "tuple":
      if ((v.k === "tuple" || v.k === "list") && v.e.length === t.e.length) return { k: "tuple", e: v.e.map((x, i) => convert(x, t.e[i] as T)) };
      break;
    default:
      break;
  }
  throw new EvalError(`cannot convert ${typeString(typeOf(v))} to ${typeString(t)}`);
}

/** Evaluates a type expression such as `map(object({a = string}))`. */
export function typeExpr(e: Expression): T {
  if (e.kind === "ScopeTraversal" && e.traversal.length === 1) {
    const name = e.traversal[0]?.kind === "Root" ? e.traversal[0].name : "";
    switch (name) {
      case "string":
      case "number":
      case "bool":
      case "any":
        return { k: name };
      default:
        break;
    }
  }
  if (e.kind === "FunctionCall" && e.args.length === 1) {
    const arg = e.args[0] as Expression;
    switch (e.name) {
      case "list":
      case "set":
      case "map":
        return { k: e.name, e: typeExpr(arg) };
      case "object": {
        if (arg.kind !== "Object") break;
        const a = new Map<string, T>();
        for (const item of arg.items) a.set(objectKey(item.key.wrapped, item.key.forceNonLiteral, new Map()), typeExpr(item.value));
        return { k: "object", a };
      }
      case "tuple":
        if (arg.kind === "Tuple") return { k: "tuple", e: arg.exprs.map(typeExpr) };
        break;
      default:
        break;
    }
  }
  throw new EvalError("invalid type expression");
}

function objectKey(key: Expression, forceNonLiteral: boolean, vars: ReadonlyMap<string, V>): string {
  if (!forceNonLiteral && key.kind === "ScopeTraversal" && key.traversal.length === 1 && key.traversal[0]?.kind === "Root") {
    return key.traversal[0].name;
  }
  // The keywords true, false and null parse as literals but name keys, as in HCL.
  if (!forceNonLiteral && key.kind === "Literal") {
    if (key.value.type === "null") return "null";
    if (key.value.type === "bool") return key.value.value ? "true" : "false";
  }
  const v = convert(evaluate(key, vars), { k: "string" });
  if (v.k !== "string") throw new EvalError("object key is null");
  return v.s;
}

function num(v: V): Rat {
  const c = convert(v, { k: "number" });
  if (c.k !== "number") throw new EvalError("number required");
  return c.r;
}

function bool(v: V): boolean {
  const c = convert(v, { k: "bool" });
  if (c.k !== "bool") throw new EvalError("bool required");
  return c.b;
}

function arith(op: string, a: Rat, b: Rat): Rat {
  switch (op) {
    case "+":
      return round512(rat(a.n * b.d + b.n * a.d, a.d * b.d));
    case "-":
      return round512(rat(a.n * b.d - b.n * a.d, a.d * b.d));
    case "*":
      return round512(rat(a.n * b.n, a.d * b.d));
    case "/":
      if (b.n === 0n) throw new EvalError("divide by zero");
      return round512(rat(a.n * b.d, a.d * b.n));
    default: {
      // cty's Modulo: a - b * trunc(a / b), computed in 512-bit steps.
      const q = arith("/", a, b);
      const t = q.n / q.d;
      const prod = round512(rat(b.n * t, b.d));
      return arith("-", a, prod);
    }
  }
}

export function evaluate(e: AnyExpression, vars: ReadonlyMap<string, V>): V {
  switch (e.kind) {
    case "JSONExpr":
      return evaluateJSON(e.value, vars);
    case "Literal":
      switch (e.value.type) {
        case "number": {
          const r = parseNumber(e.value.text);
          if (!r) throw new EvalError("invalid number");
          return { k: "number", r };
        }
        case "string":
          return { k: "string", s: e.value.value };
        case "bool":
          return { k: "bool", b: e.value.value };
        case "null":
          return { k: "null", t: ANY };
        default:
          throw new EvalError("invalid expression");
      }
    case "Template": {
      const out: string[] = [];
      for (const p of e.parts) {
        const v = convert(evaluate(p, vars), { k: "string" });
        if (v.k !== "string") throw new EvalError("null value in template");
        out.push(v.s);
      }
      return { k: "string", s: out.join("") };
    }
    case "TemplateWrap":
      return evaluate(e.wrapped, vars);
    case "Parentheses":
      return evaluate(e.expression, vars);
    case "ScopeTraversal": {
      let cur: V | undefined;
      for (const step of e.traversal) {
        if (step.kind === "Root") cur = vars.get(step.name);
        else if (!cur) break;
        else if (step.kind === "Attr") cur = cur.k === "object" || cur.k === "map" ? cur.a.get(step.name) : undefined;
        else if ((cur.k === "tuple" || cur.k === "list") && step.key.type === "number") cur = cur.e[Number(step.key.text)];
        else cur = undefined;
      }
      if (!cur) throw new EvalError("unknown variable or attribute");
      return cur;
    }
    case "UnaryOp": {
      const v = evaluate(e.operand, vars);
      if (e.op === "!") return { k: "bool", b: !bool(v) };
      const r = num(v);
      return { k: "number", r: { n: -r.n, d: r.d } };
    }
    case "BinaryOp": {
      const a = evaluate(e.lhs, vars);
      const b = evaluate(e.rhs, vars);
      switch (e.op) {
        case "==":
          return { k: "bool", b: valuesEqual(a, b) };
        case "!=":
          return { k: "bool", b: !valuesEqual(a, b) };
        case "&&":
          return { k: "bool", b: bool(a) && bool(b) };
        case "||":
          return { k: "bool", b: bool(a) || bool(b) };
        case "<":
          return { k: "bool", b: cmp(num(a), num(b)) < 0 };
        case "<=":
          return { k: "bool", b: cmp(num(a), num(b)) <= 0 };
        case ">":
          return { k: "bool", b: cmp(num(a), num(b)) > 0 };
        case ">=":
          return { k: "bool", b: cmp(num(a), num(b)) >= 0 };
        default:
          return { k: "number", r: arith(e.op, num(a), num(b)) };
      }
    }
    case "Conditional":
      return bool(evaluate(e.condition, vars)) ? evaluate(e.trueResult, vars) : evaluate(e.falseResult, vars);
    case "Tuple":
      return { k: "tuple", e: e.exprs.map((x) => evaluate(x, vars)) };
    case "Object": {
      const a = new Map<string, V>();
      for (const item of e.items) a.set(objectKey(item.key.wrapped, item.key.forceNonLiteral, vars), evaluate(item.value, vars));
      return { k: "object", a };
    }
    default:
      throw new EvalError(`the specsuite evaluator does not support ${e.kind} expressions`);
  }
}

function evaluateJSON(v: JSONValue, vars: ReadonlyMap<string, V>): V {
  switch (v.kind) {
    case "JSONString": {
      const t = parseJSONStringTemplate(v);
      if (t.diagnostics.length > 0) throw new EvalError(t.diagnostics[0]?.summary ?? "invalid template");
      return evaluate(t.result, vars);
    }
    case "JSONNumber": {
      const r = parseNumber(v.text);
      if (!r) throw new EvalError("invalid number");
      return { k: "number", r };
    }
    case "JSONBool":
      return { k: "bool", b: v.value };
    case "JSONNull":
      return { k: "null", t: ANY };
    case "JSONArray":
      return { k: "tuple", e: v.values.map((x) => evaluateJSON(x, vars)) };
    case "JSONObject":
      return { k: "object", a: new Map(v.attrs.map((a) => [a.name, evaluateJSON(a.value, vars)])) };
    default:
      throw new EvalError("invalid JSON value");
  }
}
