// Built-in functions: regex, regexall (cty stdlib regexp.go) with RE2 semantics through re2js.
// The result type follows the pattern's capture groups: none → string, unnamed → tuple of
// strings, named → object; mixing both is an error. Groups that took no part in the match are
// null strings.
import {
  DynamicPseudoType,
  Func,
  StringType,
  argError,
  asString,
  callError,
  listOf,
  listVal,
  listValEmpty,
  nullVal,
  objectOf,
  objectVal,
  refineNonNull,
  stringVal,
  tupleOf,
  tupleVal,
  type FunctionResult,
  type Type,
  type Value,
} from "../../values/index.js";
import type { FunctionContext } from "./context.js";
import { compileRegexp, type GoRegexp } from "./goregexp.js";

type Compiled = { ok: true; re: GoRegexp; type: Type } | { ok: false; message: string };

/** regexPatternResultType: compiles the pattern and derives the result type from its groups. */
function compilePattern(pattern: string): Compiled {
  const c = compileRegexp(pattern);
  if (!c.ok) return { ok: false, message: `invalid regexp pattern: ${c.code} in ${c.expr}` };
  const names = c.re.subexpNames.slice(1);
  const named = names.filter((n) => n !== "");
  const unnamed = names.length - named.length;
  if (unnamed === 0 && named.length === 0) return { ok: true, re: c.re, type: StringType };
  if (unnamed > 0 && named.length > 0) return { ok: false, message: "invalid regexp pattern: cannot mix both named and unnamed capture groups" };
  if (unnamed > 0) return { ok: true, re: c.re, type: tupleOf(names.map(() => StringType)) };
  return { ok: true, re: c.re, type: objectOf(Object.fromEntries(named.map((n) => [n, StringType]))) };
}

function resultFor(re: GoRegexp, s: string, idx: readonly number[], t: Type): Value {
  const group = (g: number): Value => {
    const a = idx[2 * g] as number;
    const b = idx[2 * g + 1] as number;
    return a < 0 || b < 0 ? nullVal(StringType) : stringVal(s.slice(a, b));
  };
  if (t.kind === "string") return group(0);
  const groups = re.subexpNames.slice(1).map((_, i) => group(i + 1));
  if (t.kind === "tuple") return tupleVal(groups);
  return objectVal(Object.fromEntries(re.subexpNames.slice(1).map((n, i) => [n, groups[i] as Value])));
}

function patternType(args: readonly Value[], wrap: (t: Type) => Type): FunctionResult<Type> {
  const p = args[0] as Value;
  if (p.kind !== "string") return { ok: true, value: wrap(DynamicPseudoType) };
  const c = compilePattern(p.value);
  if (!c.ok) return argError(0, c.message);
  return { ok: true, value: wrap(c.type) };
}

export function regexFunctions(_ctx: FunctionContext): Record<string, Func> {
  return {
    regex: new Func({
      params: [
        { name: "pattern", type: StringType },
        { name: "string", type: StringType },
      ],
      type: (args) => patternType(args, (t) => t),
      refineResult: refineNonNull,
      impl: (args, retType) => {
        const c = compilePattern(asString(args[0] as Value));
        if (!c.ok) return argError(0, c.message);
        const s = asString(args[1] as Value);
        const idx = c.re.findSubmatchIndex(s);
        if (!idx) return callError("pattern did not match any part of the given string");
        return { ok: true, value: resultFor(c.re, s, idx, retType) };
      },
    }),
    regexall: new Func({
      params: [
        { name: "pattern", type: StringType },
        { name: "string", type: StringType },
      ],
      type: (args) => patternType(args, listOf),
      refineResult: refineNonNull,
      impl: (args, retType) => {
        const c = compilePattern(asString(args[0] as Value));
        if (!c.ok) return argError(0, c.message);
        const ety = retType.kind === "list" ? retType.element : c.type;
        const s = asString(args[1] as Value);
        const all = c.re.findAllSubmatchIndex(s);
        if (all.length === 0) return { ok: true, value: listValEmpty(ety) };
        return { ok: true, value: listVal(all.map((idx) => resultFor(c.re, s, idx, ety))) };
      },
    }),
  };
}
