// Helpers for the values tests: build values from short literals and print them compactly so
// table-driven tests can state expectations as one-line strings.

import { BigFloat } from "./bigfloat.js";
import { typeConstraintFromText } from "./typeexpr.js";
import { typeString, type Type } from "./types.js";
import { False, True, numberVal, objectVal, stringVal, tupleVal, type Value } from "./value.js";

/** JS literal → HCL-like value: strings, numbers (as decimal text), bools, arrays → tuples, objects. */
export type Lit = string | number | boolean | Value | Lit[] | { [k: string]: Lit };

export function isValue(x: unknown): x is Value {
  return typeof x === "object" && x !== null && "kind" in x && "type" in x && "marks" in x;
}

export function lit(x: Lit): Value {
  if (typeof x === "string") return stringVal(x);
  if (typeof x === "number") return num(String(x));
  if (typeof x === "boolean") return x ? True : False;
  if (Array.isArray(x)) return tupleVal(x.map(lit));
  if (isValue(x)) return x;
  return objectVal(Object.fromEntries(Object.entries(x).map(([k, v]) => [k, lit(v)])));
}

export function num(s: string): Value {
  const f = BigFloat.parse(s);
  if (!f) throw new Error(`bad number ${s}`);
  return numberVal(f);
}

/** Parses a type expression such as `list(object({a=string}))`. */
export function ty(src: string): Type {
  const r = typeConstraintFromText(src);
  if (r.diagnostics.length > 0) throw new Error(`bad type ${src}: ${r.diagnostics[0]?.detail}`);
  return r.type;
}

/**
 * Compact rendering: `"a"`, `1.5`, `true`, `list("a", "b")`, `set(1, 2)`, `tuple(1, "a")`,
 * `map{"k": 1}`, `object{a: 1}`, `null(string)`, `unknown(number)!`, marks as `@sensitive`.
 */
export function show(v: Value): string {
  const marks = v.marks.size ? [...v.marks].sort().map((m) => `@${m}`).join("") : "";
  return render(v) + marks;
}

function render(v: Value): string {
  switch (v.kind) {
    case "unknown": {
      const r = v.refinement;
      let s = `unknown(${typeString(v.type)})`;
      if (r.notNull) s += "!";
      if (r.stringPrefix) s += ` prefix=${JSON.stringify(r.stringPrefix)}`;
      if (r.numberLower) s += ` ${r.numberLower.inclusive ? ">=" : ">"}${r.numberLower.value.text("f")}`;
      if (r.numberUpper) s += ` ${r.numberUpper.inclusive ? "<=" : "<"}${r.numberUpper.value.text("f")}`;
      if (r.lengthLower) s += ` len>=${r.lengthLower}`;
      if (r.lengthUpper !== undefined) s += ` len<=${r.lengthUpper}`;
      return s;
    }
    case "null":
      return `null(${typeString(v.type)})`;
    case "string":
      return JSON.stringify(v.value);
    case "number":
      return v.value.text("f");
    case "bool":
      return String(v.value);
    case "list":
    case "set":
    case "tuple": {
      const inner = v.elements.map(show).join(", ");
      if (v.elements.length === 0 && v.kind !== "tuple") return `${v.kind}<${typeString(v.type)}>()`;
      return `${v.kind}(${inner})`;
    }
    case "map":
    case "object": {
      const inner = [...v.attrs.entries()].map(([k, e]) => `${v.kind === "map" ? JSON.stringify(k) : k}: ${show(e)}`).join(", ");
      if (v.attrs.size === 0 && v.kind === "map") return `map<${typeString(v.type)}>{}`;
      return `${v.kind}{${inner}}`;
    }
  }
}

/** Parses a small HCL-like expression: literals, tuples, objects and one-argument calls. */
export function parseLiteralExpr(src: string, call: (name: string, arg: Value) => Value | undefined): Value | undefined {
  let i = 0;
  const ws = () => {
    while (i < src.length && /\s/.test(src[i] as string)) i++;
  };
  const expr = (): Value | undefined => {
    ws();
    const c = src[i];
    if (c === "[") {
      i++;
      const els: Value[] = [];
      ws();
      while (src[i] !== "]") {
        const e = expr();
        if (!e) return undefined;
        els.push(e);
        ws();
        if (src[i] === ",") i++;
        ws();
      }
      i++;
      return tupleVal(els);
    }
    if (c === "{") {
      i++;
      const attrs: Record<string, Value> = {};
      ws();
      while (src[i] !== "}") {
        const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
        if (!m) throw new Error(`bad key at ${i} in ${src}`);
        i += m[0].length;
        ws();
        i++; // "="
        const e = expr();
        if (!e) return undefined;
        attrs[m[0]] = e;
        ws();
        if (src[i] === ",") i++;
        ws();
      }
      i++;
      return objectVal(attrs);
    }
    if (c === '"') {
      const end = src.indexOf('"', i + 1);
      const s = src.slice(i + 1, end);
      i = end + 1;
      return stringVal(s);
    }
    const n = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(src.slice(i));
    if (n) {
      i += n[0].length;
      return num(n[0]);
    }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (!id) throw new Error(`bad expression at ${i} in ${src}`);
    i += id[0].length;
    if (id[0] === "true") return True;
    if (id[0] === "false") return False;
    ws();
    i++; // "("
    const arg = expr();
    ws();
    i++; // ")"
    return arg && call(id[0], arg);
  };
  return expr();
}
