// cty's MismatchMessage: an English reason why a value of one type does not conform to another,
// e.g. `attribute "foo" is required`, `element 1: string required`, `incorrect list element type: …`.

import { getConversionInternal } from "./convert.js";
import { compareStrings, friendlyNameForConstraint, typeEquals, type Type } from "./types.js";

const q = (s: string) => JSON.stringify(s);

export function mismatchMessage(got: Type, want: Type): string {
  if (got.kind === "object" && want.kind === "object") return mismatchObjects(got, want);
  if (got.kind === "tuple" && want.kind === "list" && want.element.kind === "dynamic") {
    return "all list elements must have the same type";
  }
  if (got.kind === "tuple" && want.kind === "set" && want.element.kind === "dynamic") {
    return "all set elements must have the same type";
  }
  if (got.kind === "object" && want.kind === "map" && want.element.kind === "dynamic") {
    return "all map elements must have the same type";
  }
  const wantColl = want.kind === "list" || want.kind === "set" || want.kind === "map";
  if ((got.kind === "tuple" || got.kind === "object") && wantColl) return mismatchFromStructural(got, want);
  if ((got.kind === "list" || got.kind === "set" || got.kind === "map") && wantColl) return mismatchFromCollection(got, want);
  return `${friendlyNameForConstraint(want)} required`;
}

function mismatchObjects(got: Extract<Type, { kind: "object" }>, want: Extract<Type, { kind: "object" }>): string {
  const missing: string[] = [];
  let unsafeMismatch = "";
  let safeMismatch = "";
  for (const [name, wantT] of want.attributes) {
    const gotT = got.attributes.get(name);
    if (!gotT) {
      if (!want.optional.has(name)) missing.push(name);
      continue;
    }
    if (typeEquals(gotT, wantT)) continue;
    if (unsafeMismatch !== "") continue;
    if (!getConversionInternal(gotT, wantT, true)) {
      unsafeMismatch = `attribute ${q(name)}: ${mismatchMessage(gotT, wantT)}`;
    }
    if (safeMismatch !== "") continue;
    if (!getConversionInternal(gotT, wantT, false)) {
      safeMismatch = `attribute ${q(name)}: ${mismatchMessage(gotT, wantT)}`;
    }
  }
  if (missing.length > 0) {
    missing.sort(compareStrings);
    if (missing.length === 1) return `attribute ${q(missing[0] as string)} is required`;
    if (missing.length === 2) return `attributes ${q(missing[0] as string)} and ${q(missing[1] as string)} are required`;
    const head = missing.slice(0, -1).map((m) => `${q(m)}, `).join("");
    return `attributes ${head}and ${q(missing[missing.length - 1] as string)} are required`;
  }
  if (unsafeMismatch) return unsafeMismatch;
  if (safeMismatch) return safeMismatch;
  return "incorrect object attributes";
}

function mismatchFromStructural(got: Type, want: Extract<Type, { kind: "list" | "set" | "map" }>): string {
  if ((want.kind === "list" || want.kind === "set") && got.kind !== "tuple") return `${friendlyNameForConstraint(want)} required`;
  if (want.kind === "map" && got.kind !== "object") return `${friendlyNameForConstraint(want)} required`;
  const wantEty = want.element;
  if (got.kind === "tuple") {
    for (let i = 0; i < got.elements.length; i++) {
      const e = got.elements[i] as Type;
      if (typeEquals(e, wantEty) || getConversionInternal(e, wantEty, true)) continue;
      return `element ${i}: ${mismatchMessage(e, wantEty)}`;
    }
  } else if (got.kind === "object") {
    for (const [name, at] of got.attributes) {
      if (typeEquals(at, wantEty) || getConversionInternal(at, wantEty, true)) continue;
      return `element ${q(name)}: ${mismatchMessage(at, wantEty)}`;
    }
  }
  return `all elements must be ${friendlyNameForConstraint(wantEty)}`;
}

function mismatchFromCollection(got: Extract<Type, { kind: "list" | "set" | "map" }>, want: Extract<Type, { kind: "list" | "set" | "map" }>): string {
  if ((want.kind === "list" || want.kind === "set") && got.kind === "map") return `${friendlyNameForConstraint(want)} required`;
  if (want.kind === "map" && got.kind !== "map") return `${friendlyNameForConstraint(want)} required`;
  return `incorrect ${want.kind} element type: ${mismatchMessage(got.element, want.element)}`;
}
