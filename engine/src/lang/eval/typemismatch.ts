// Why the two arms of a conditional have no common type, in HCL's words
// (hclsyntax describeConditionalTypeMismatch). Called only after unification failed.
import { compareStrings, friendlyName, typeEquals, type Type } from "../../values/index.js";

export function describeConditionalTypeMismatch(t: Type, f: Type): string {
  if (t.kind === "object" && f.kind === "object") {
    const tNames = [...t.attributes.keys()].sort(compareStrings);
    const fNames = [...f.attributes.keys()].sort(compareStrings);
    for (const name of tNames) {
      const fa = f.attributes.get(name);
      if (!fa) return `The 'true' value includes object attribute ${JSON.stringify(name)}, which is absent in the 'false' value`;
      const ta = t.attributes.get(name) as Type;
      if (!typeEquals(ta, fa)) return `Type mismatch for object attribute ${JSON.stringify(name)}: ${describeConditionalTypeMismatch(ta, fa)}`;
    }
    for (const name of fNames) {
      if (!t.attributes.has(name)) return `The 'false' value includes object attribute ${JSON.stringify(name)}, which is absent in the 'true' value`;
    }
  } else if (t.kind === "tuple" && f.kind === "tuple") {
    if (t.elements.length !== f.elements.length) {
      return `The 'true' tuple has length ${t.elements.length}, but the 'false' tuple has length ${f.elements.length}`;
    }
    for (let i = 0; i < t.elements.length; i++) {
      const te = t.elements[i] as Type;
      const fe = f.elements[i] as Type;
      if (!typeEquals(te, fe)) return `Type mismatch for tuple element ${i}: ${describeConditionalTypeMismatch(te, fe)}`;
    }
  } else if ((t.kind === "list" || t.kind === "map" || t.kind === "set") && t.kind === f.kind) {
    const te = t.element;
    const fe = f.element;
    if ((te.kind === "object" && fe.kind === "object") || (te.kind === "tuple" && fe.kind === "tuple")) {
      return `Mismatched ${t.kind} element types: ${describeConditionalTypeMismatch(te, fe)}`;
    }
  }
  const tn = friendlyName(t);
  const fn = friendlyName(f);
  if (tn === fn) {
    return "At least one deeply-nested attribute or element is not compatible across both the 'true' and the 'false' value";
  }
  return `The 'true' value is ${tn}, but the 'false' value is ${fn}`;
}
