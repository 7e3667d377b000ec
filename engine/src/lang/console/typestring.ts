// The console-only `type()` function and how the console prints its result: a type written as
// OpenTofu's repl.typeString does (multi-line, four-space indents, sorted attributes).
import { DynamicPseudoType, Func, compareStrings, stringVal, unmarkDeep, type Type, type Value } from "../../values/index.js";

/** Values made by `type()`: the console prints these as types; anything derived from them is an error. */
const typeValues = new WeakMap<Value, Type>();

export function typeOfTypeValue(v: Value): Type | undefined {
  return typeValues.get(v);
}

/** A mark carried by every value derived from a `type()` result. */
export const TYPE_MARK = "console-type";

export const typeFunc = new Func({
  params: [{ name: "value", type: DynamicPseudoType, allowNull: true, allowUnknown: true, allowDynamicType: true, allowMarked: true }],
  type: () => ({ ok: true, value: { kind: "string" } }),
  impl: (args) => {
    const given = args[0] as Value;
    const [v] = unmarkDeep(given);
    // A type() result inside the argument is itself a type: `type(type(1))` is "type".
    const out: Value = { ...stringVal(writeType(v.type, 0, given)), marks: new Set([TYPE_MARK]) };
    typeValues.set(out, v.type);
    return { ok: true, value: out };
  },
});

export function typeString(t: Type): string {
  return writeType(t, 0);
}

function indent(level: number): string {
  return "    ".repeat(level);
}

/** `value`, when given, is the value of that type: where it holds a type() result, "type" is written. */
function writeType(t: Type, level: number, value?: Value): string {
  if (value?.marks.has(TYPE_MARK)) return "type";
  switch (t.kind) {
    case "object": {
      const names = [...t.attributes.keys()].sort(compareStrings);
      if (names.length === 0) return "object({})";
      const attrs = value?.kind === "object" ? value.attrs : undefined;
      let s = "object({\n";
      for (const n of names) s += `${indent(level + 1)}${n}: ${writeType(t.attributes.get(n) as Type, level + 1, attrs?.get(n))},\n`;
      return s + `${indent(level)}})`;
    }
    case "tuple": {
      if (t.elements.length === 0) return "tuple([])";
      const elements = value?.kind === "tuple" ? value.elements : undefined;
      let s = "tuple([\n";
      t.elements.forEach((e, i) => (s += `${indent(level + 1)}${writeType(e, level + 1, elements?.[i])},\n`));
      return s + `${indent(level)}])`;
    }
    case "list":
    case "map":
    case "set": {
      const complex = t.element.kind === "object" || t.element.kind === "tuple";
      if (!complex) return `${t.kind}(${writeType(t.element, level)})`;
      return `${t.kind}(\n${indent(level + 1)}${writeType(t.element, level + 1)},\n${indent(level)})`;
    }
    case "dynamic":
      return "dynamic";
    default:
      return t.kind;
  }
}
