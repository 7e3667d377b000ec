// Built-in functions: explicit type conversion (OpenTofu's MakeToFunc) and the sensitivity
// functions (lang/funcs/sensitive.go). The `to*` functions take any value and convert it with
// cty's unsafe conversion, with error texts written for explicit conversions; they never reveal a
// sensitive value in an error. `issensitive` is OpenTofu 1.11's: unknown for an unknown value,
// even a marked one (Terraform answers true for a marked unknown).
import {
  BoolType,
  DynamicPseudoType,
  EPHEMERAL,
  False,
  Func,
  NumberType,
  SENSITIVE,
  StringType,
  True,
  argError,
  containsMarked,
  convert,
  friendlyName,
  friendlyNameForConstraint,
  getConversionUnsafe,
  goQuote,
  hasMark,
  isKnown,
  listOf,
  mapOf,
  mark,
  mismatchMessage,
  nullVal,
  refineNonNull,
  setOf,
  typeEquals,
  unmark,
  unknownVal,
  unmarkDeepWithPaths,
  withMarks,
  type Parameter,
  type Type,
  type Value,
} from "../../values/index.js";
import type { FunctionContext } from "./context.js";

const anyValue: Parameter = { name: "value", type: DynamicPseudoType, allowUnknown: true, allowNull: true, allowMarked: true, allowDynamicType: true };

/** Whether any part of `v` carries the sensitive mark. */
function containsSensitive(v: Value): boolean {
  if (!containsMarked(v)) return false;
  return unmarkDeepWithPaths(v)[1].some((pm) => pm.marks.has(SENSITIVE));
}

function makeToFunc(want: Type): Func {
  return new Func({
    params: [{ name: "v", type: DynamicPseudoType, allowNull: true, allowMarked: true, allowDynamicType: true }],
    type: (args) => {
      const got = (args[0] as Value).type;
      if (typeEquals(got, want)) return { ok: true, value: want };
      if (!getConversionUnsafe(got, want)) {
        if (got.kind === "tuple" && want.kind === "tuple") return argError(0, `incompatible tuple type for conversion: ${mismatchMessage(got, want)}`);
        if (got.kind === "object" && want.kind === "object") return argError(0, `incompatible object type for conversion: ${mismatchMessage(got, want)}`);
        return argError(0, `cannot convert ${friendlyName(got)} to ${friendlyNameForConstraint(want)}`);
      }
      return { ok: true, value: want };
    },
    impl: (args, retType) => {
      const v = args[0] as Value;
      const c = convert(v, retType);
      if (c.ok) return { ok: true, value: c.value };
      const [plain] = unmark(v);
      const got = plain.type;
      if (containsSensitive(v)) return argError(0, `cannot convert this sensitive ${friendlyName(got)} to ${friendlyNameForConstraint(want)}`);
      if (got.kind === "string" && (want.kind === "bool" || want.kind === "number")) {
        const what = plain.kind === "string" ? goQuote(plain.value) : "string";
        if (want.kind === "bool") return argError(0, `cannot convert ${what} to bool; only the strings "true" or "false" are allowed`);
        return argError(0, `cannot convert ${what} to number; given string must be a decimal representation of a number`);
      }
      return argError(0, `cannot convert ${friendlyName(got)} to ${friendlyNameForConstraint(want)}`);
    },
  });
}

/**
 * OpenTofu's ephemeralasnull: every ephemeral part of `v`, at any depth, becomes a null of its
 * type; other marks stay. An unknown loses its refinements (its ephemerality is not decided yet).
 */
function ephemeralAsNull(v: Value): Value {
  let inner: Value = v;
  // Set elements carry no marks (they belong to the set), so only lists, tuples, maps and objects recurse.
  if ((v.kind === "list" || v.kind === "tuple") && v.elements.some(containsMarked)) {
    inner = { ...v, elements: v.elements.map(ephemeralAsNull) };
  } else if ((v.kind === "map" || v.kind === "object") && [...v.attrs.values()].some(containsMarked)) {
    inner = { ...v, attrs: new Map([...v.attrs].map(([k, e]) => [k, ephemeralAsNull(e)])) };
  }
  const kept = [...v.marks].filter((m) => m !== EPHEMERAL);
  if (v.kind === "null" || v.marks.has(EPHEMERAL)) return withMarks(nullVal(v.type), ...kept);
  if (v.kind === "unknown") return withMarks(unknownVal(v.type), ...kept);
  return inner;
}

export function conversionFunctions(_ctx: FunctionContext): Record<string, Func> {
  return {
    tobool: makeToFunc(BoolType),
    tolist: makeToFunc(listOf(DynamicPseudoType)),
    tomap: makeToFunc(mapOf(DynamicPseudoType)),
    tonumber: makeToFunc(NumberType),
    toset: makeToFunc(setOf(DynamicPseudoType)),
    tostring: makeToFunc(StringType),
    sensitive: new Func({
      params: [anyValue],
      type: (args) => ({ ok: true, value: (args[0] as Value).type }),
      impl: (args) => ({ ok: true, value: mark(args[0] as Value, SENSITIVE) }),
    }),
    nonsensitive: new Func({
      params: [anyValue],
      type: (args) => ({ ok: true, value: (args[0] as Value).type }),
      impl: (args) => {
        // Only the value's own mark goes; sensitive parts inside it stay sensitive.
        const [plain, marks] = unmark(args[0] as Value);
        return { ok: true, value: withMarks(plain, ...[...marks].filter((m) => m !== SENSITIVE)) };
      },
    }),
    ephemeralasnull: new Func({
      params: [anyValue],
      type: (args) => ({ ok: true, value: (args[0] as Value).type }),
      impl: (args) => ({ ok: true, value: ephemeralAsNull(args[0] as Value) }),
    }),
    issensitive: new Func({
      params: [anyValue],
      type: () => ({ ok: true, value: BoolType }),
      refineResult: refineNonNull,
      // OpenTofu 1.11 (opentofu#3008): an unknown value's sensitivity is not final, since an
      // expression may pick a sensitive or a plain value once something else is known.
      impl: (args) => ({ ok: true, value: !isKnown(args[0] as Value) ? unknownVal(BoolType) : hasMark(args[0] as Value, SENSITIVE) ? True : False }),
    }),
  };
}
