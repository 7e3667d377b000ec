// cty's GoString (`%#v`) for types and values. OpenTofu's contract-violation messages print
// values this way on purpose (the audience is the provider's developers), so we must too:
// `cty.StringVal("a")`, `cty.NullVal(cty.String)`, `cty.UnknownVal(cty.String).RefineNotNull()`,
// `cty.ObjectVal(map[string]cty.Value{"a":cty.True})`.

import { compareStrings, goQuote, type Type, type Value } from "../../values/index.js";

export function typeGoString(t: Type): string {
  switch (t.kind) {
    case "string":
      return "cty.String";
    case "number":
      return "cty.Number";
    case "bool":
      return "cty.Bool";
    case "dynamic":
      return "cty.DynamicPseudoType";
    case "list":
      return `cty.List(${typeGoString(t.element)})`;
    case "set":
      return `cty.Set(${typeGoString(t.element)})`;
    case "map":
      return `cty.Map(${typeGoString(t.element)})`;
    case "object": {
      if (t.attributes.size === 0) return "cty.EmptyObject";
      const attrs = [...t.attributes].map(([k, at]) => `${goQuote(k)}:${typeGoString(at)}`).join(", ");
      if (t.optional.size > 0) {
        const opt = [...t.optional].sort(compareStrings).map(goQuote).join(", ");
        return `cty.ObjectWithOptionalAttrs(map[string]cty.Type{${attrs}}, []string{${opt}})`;
      }
      return `cty.Object(map[string]cty.Type{${attrs}})`;
    }
    case "tuple":
      if (t.elements.length === 0) return "cty.EmptyTuple";
      return `cty.Tuple([]cty.Type{${t.elements.map(typeGoString).join(", ")}})`;
  }
}

/** Go's %#v of a float64: shortest text, exponent form beyond 1e21 as strconv 'g' does. */
function goFloat(f: number): string {
  if (Number.isInteger(f) && Math.abs(f) < 1e21) return `${f}`;
  const s = `${f}`;
  return s.replace(/e([+-])(\d)$/, "e$10$2");
}

export function valueGoString(v: Value): string {
  const marks = v.marks.size > 0 ? [...v.marks].sort().map((m) => `.Mark(${goQuote(m)})`).join("") : "";
  return bare(v) + marks;
}

function bare(v: Value): string {
  switch (v.kind) {
    case "null":
      return `cty.NullVal(${typeGoString(v.type)})`;
    case "unknown": {
      if (v.type.kind === "dynamic") return "cty.DynamicVal";
      const base = `cty.UnknownVal(${typeGoString(v.type)})`;
      const r = v.refinement;
      const extra: string[] = [];
      if (r.stringPrefix) extra.push(`.StringPrefixFull(${goQuote(r.stringPrefix)})`);
      if (r.numberLower) extra.push(`.NumberLowerBound(${numberGoString(r.numberLower.value)}, ${r.numberLower.inclusive})`);
      if (r.numberUpper) extra.push(`.NumberUpperBound(${numberGoString(r.numberUpper.value)}, ${r.numberUpper.inclusive})`);
      if (r.lengthLower !== undefined && r.lengthLower > 0) extra.push(`.CollectionLengthLowerBound(${r.lengthLower})`);
      if (r.lengthUpper !== undefined) extra.push(`.CollectionLengthUpperBound(${r.lengthUpper})`);
      if (extra.length === 0) return r.notNull ? `${base}.RefineNotNull()` : base;
      return `${base}.Refine()${r.notNull ? ".NotNull()" : ""}${extra.join("")}.NewValue()`;
    }
    case "string":
      return `cty.StringVal(${goQuote(v.value)})`;
    case "number":
      return numberGoString(v.value);
    case "bool":
      return v.value ? "cty.True" : "cty.False";
    case "list":
      if (v.elements.length === 0) return `cty.ListValEmpty(${typeGoString(elementTypeOf(v.type))})`;
      return `cty.ListVal([]cty.Value{${v.elements.map(valueGoString).join(", ")}})`;
    case "set":
      if (v.elements.length === 0) return `cty.SetValEmpty(${typeGoString(elementTypeOf(v.type))})`;
      return `cty.SetVal([]cty.Value{${v.elements.map(valueGoString).join(", ")}})`;
    case "tuple":
      if (v.elements.length === 0) return "cty.EmptyTupleVal";
      return `cty.TupleVal([]cty.Value{${v.elements.map(valueGoString).join(", ")}})`;
    case "map":
      if (v.attrs.size === 0) return `cty.MapValEmpty(${typeGoString(elementTypeOf(v.type))})`;
      return `cty.MapVal(map[string]cty.Value{${entries(v.attrs)}})`;
    case "object":
      if (v.attrs.size === 0) return "cty.EmptyObjectVal";
      return `cty.ObjectVal(map[string]cty.Value{${entries(v.attrs)}})`;
  }
}

function entries(attrs: ReadonlyMap<string, Value>): string {
  return [...attrs].sort((a, b) => compareStrings(a[0], b[0])).map(([k, e]) => `${goQuote(k)}:${valueGoString(e)}`).join(", ");
}

function elementTypeOf(t: Type): Type {
  return t.kind === "list" || t.kind === "set" || t.kind === "map" ? t.element : t;
}

function numberGoString(n: Extract<Value, { kind: "number" }>["value"]): string {
  if (n.isInt()) return `cty.NumberIntVal(${n.text("g")})`;
  const f = n.toFloat64Exact();
  if (f !== undefined) return `cty.NumberFloatVal(${goFloat(f)})`;
  return `cty.MustParseNumberVal(${goQuote(n.text("f"))})`;
}
