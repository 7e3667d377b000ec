// Built-in functions: format, formatlist (cty stdlib format.go). The verb language lives in
// ./gofmt.ts. Unknown arguments make the result unknown — refined with the literal text before
// the first `%` for format, and element by element for formatlist.
import {
  DynamicPseudoType,
  Func,
  StringType,
  argError,
  asString,
  callError,
  isWhollyKnown,
  listOf,
  listVal,
  listValEmpty,
  refine,
  refineNonNull,
  staticReturnType,
  stringVal,
  unknownVal,
  type FunctionResult,
  type Value,
} from "../../values/index.js";
import type { FunctionContext } from "./context.js";
import { formatString } from "./gofmt.js";

const argsParam = { name: "args", type: DynamicPseudoType, allowNull: true, allowUnknown: true } as const;

function format(fmt: string, args: readonly Value[]): FunctionResult<Value> {
  for (const a of args) {
    if (!isWhollyKnown(a)) {
      const idx = fmt.indexOf("%");
      if (idx > 0) return { ok: true, value: refine(unknownVal(StringType)).stringPrefix(fmt.slice(0, idx)).newValue() };
      return { ok: true, value: unknownVal(StringType) };
    }
  }
  const r = formatString(fmt, args);
  if (r.ok) return { ok: true, value: stringVal(r.value) };
  // cty's ArgError indexes count the format string as argument 0.
  if (r.error.argIndex !== undefined) return argError(r.error.argIndex, r.error.message);
  return callError(r.error.message);
}

function formatlist(fmt: string, args: readonly Value[]): FunctionResult<Value> {
  if (args.length === 0) {
    const r = format(fmt, args);
    return r.ok ? { ok: true, value: listVal([r.value]) } : r;
  }
  let iterLen = -1;
  let lenChooser = -1;
  let unknown = false;
  const sequences: Array<readonly Value[] | undefined> = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Value;
    const k = a.type.kind;
    if ((k === "list" || k === "set" || k === "tuple") && a.kind !== "null") {
      // An unknown list or set has no length yet; an unknown tuple's length is in its type.
      if (k !== "tuple" && a.kind === "unknown") {
        unknown = true;
        sequences.push(undefined);
        continue;
      }
      const len = a.kind === "unknown" ? (a.type.kind === "tuple" ? a.type.elements.length : 0) : "elements" in a ? a.elements.length : 0;
      if (iterLen === -1) {
        iterLen = len;
        lenChooser = i;
      } else if (len !== iterLen) {
        return argError(i + 1, `argument ${i + 1} has length ${len}, which is inconsistent with argument ${lenChooser + 1} of length ${iterLen}`);
      }
      if (a.kind === "unknown") {
        unknown = true;
        sequences.push(undefined);
        continue;
      }
      sequences.push("elements" in a ? a.elements : []);
    } else {
      if (a.kind === "unknown" && a.type.kind === "dynamic") unknown = true;
      sequences.push(undefined);
    }
  }
  if (unknown) return { ok: true, value: unknownVal(listOf(StringType)) };
  if (iterLen === 0) return { ok: true, value: listValEmpty(StringType) };
  if (iterLen === -1) iterLen = 1;
  const out: Value[] = [];
  iterations: for (let it = 0; it < iterLen; it++) {
    const callArgs: Value[] = [];
    for (let i = 0; i < args.length; i++) {
      const seq = sequences[i];
      const v = seq ? (seq[it] as Value) : (args[i] as Value);
      if (!isWhollyKnown(v)) {
        out.push(refine(unknownVal(StringType)).notNull().newValue());
        continue iterations;
      }
      callArgs.push(v);
    }
    const r = formatString(fmt, callArgs);
    if (!r.ok) return callError(`error on format iteration ${it}: ${r.error.message}`);
    out.push(stringVal(r.value));
  }
  return { ok: true, value: listVal(out) };
}

export function formatFunctions(_ctx: FunctionContext): Record<string, Func> {
  return {
    format: new Func({
      params: [{ name: "format", type: StringType }],
      varParam: argsParam,
      type: staticReturnType(StringType),
      refineResult: refineNonNull,
      impl: (args) => format(asString(args[0] as Value), args.slice(1)),
    }),
    formatlist: new Func({
      params: [{ name: "format", type: StringType }],
      varParam: argsParam,
      type: staticReturnType(listOf(StringType)),
      refineResult: refineNonNull,
      impl: (args) => formatlist(asString(args[0] as Value), args.slice(1)),
    }),
  };
}
