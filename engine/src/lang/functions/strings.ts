// Built-in functions: strings. Parameters, unknown handling and refinements follow cty's stdlib
// (string.go) and OpenTofu's own versions (lang/funcs/string.go: startswith, endswith, replace,
// strcontains). Text rules are Go's: case mapping is per rune (simple mappings), lengths and
// offsets count grapheme clusters, and results are NFC-normalised by stringVal as in cty.
import {
  BoolType,
  False,
  Func,
  StringType,
  True,
  argError,
  asString,
  callError,
  listOf,
  listVal,
  listValEmpty,
  NumberType,
  refineNonNull,
  staticReturnType,
  stringVal,
  unknownVal,
  type Parameter,
  type Value,
} from "../../values/index.js";
import type { FunctionContext } from "./context.js";
import { compileRegexp } from "./goregexp.js";
import { goInt } from "./goint.js";
import {
  graphemes,
  isDigitRune,
  isLetterRune,
  isSpaceRune,
  mapRunes,
  toLowerRune,
  toTitleRune,
  toUpperRune,
  utf8Length,
} from "./unicode.js";

/** The longest padding we build: beyond it JavaScript cannot hold the string anyway. */
const MAX_PAD = 1n << 28n;

const str = (name: string, extra: Partial<Parameter> = {}): Parameter => ({ name, type: StringType, ...extra });

/** A string → string function with cty's usual shape (never-null result). */
function stringToString(f: (s: string) => string, dynamic = false): Func {
  return new Func({
    params: [str("str", dynamic ? { allowDynamicType: true } : {})],
    type: staticReturnType(StringType),
    refineResult: refineNonNull,
    impl: (args) => ({ ok: true, value: stringVal(f(asString(args[0] as Value))) }),
  });
}

/** strings.Title: the first letter after each separator in titlecase. */
function goTitle(s: string): string {
  let prev = 0x20;
  return mapRunes(s, (cp) => {
    const sep = isSeparator(prev);
    prev = cp;
    return sep ? toTitleRune(cp) : cp;
  });
}

function isSeparator(cp: number): boolean {
  if (cp <= 0x7f) {
    const alnum = (cp >= 0x30 && cp <= 0x39) || (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a) || cp === 0x5f;
    return !alnum;
  }
  if (isLetterRune(cp) || isDigitRune(cp)) return false;
  return isSpaceRune(cp);
}

/** strings.TrimFunc over runes. */
function trimRunes(s: string, drop: (cp: number) => boolean): string {
  const cps = [...s];
  let a = 0;
  let b = cps.length;
  while (a < b && drop((cps[a] as string).codePointAt(0) as number)) a++;
  while (b > a && drop((cps[b - 1] as string).codePointAt(0) as number)) b--;
  return cps.slice(a, b).join("");
}

/** strings.Split: an empty separator splits after each rune; an empty input with it gives no parts. */
function goSplit(s: string, sep: string): string[] {
  if (sep === "") return [...s];
  return s.split(sep);
}

/** strings.ReplaceAll: an empty `old` matches at the start and after each rune. */
function goReplaceAll(s: string, old: string, repl: string): string {
  if (old === "") return repl + [...s].map((c) => c + repl).join("");
  return s.split(old).join(repl);
}

function substr(s: string, offset: bigint, length: bigint): string {
  const gs = graphemes(s);
  let off = offset;
  if (off < 0n) off += BigInt(gs.length);
  else if (length === 0n) return "";
  // As cty's cluster-by-cluster seek: past the end gives "", and an offset still negative after
  // counting from the end starts at the beginning.
  let from = 0;
  if (off > 0n) {
    if (off >= BigInt(gs.length)) return "";
    from = Number(off);
  }
  // A negative length takes the rest; so does 0 here (only reachable with a negative offset),
  // because cty's second seek loop never stops at position 0.
  if (length <= 0n) return gs.slice(from).join("");
  const to = BigInt(from) + length >= BigInt(gs.length) ? gs.length : from + Number(length);
  return gs.slice(from, to).join("");
}

export function stringsFunctions(_ctx: FunctionContext): Record<string, Func> {
  return {
    upper: stringToString((s) => mapRunes(s, toUpperRune), true),
    lower: stringToString((s) => mapRunes(s, toLowerRune), true),
    strrev: stringToString((s) => graphemes(s).reverse().join(""), true),
    title: stringToString(goTitle),
    trimspace: stringToString((s) => trimRunes(s, isSpaceRune)),
    chomp: stringToString((s) => s.replace(/[\r\n]+$/, "")),

    trim: new Func({
      params: [str("str"), str("cutset")],
      type: staticReturnType(StringType),
      refineResult: refineNonNull,
      impl: (args) => {
        const cut = new Set([...asString(args[1] as Value)].map((c) => c.codePointAt(0) as number));
        return { ok: true, value: stringVal(trimRunes(asString(args[0] as Value), (cp) => cut.has(cp))) };
      },
    }),
    trimprefix: new Func({
      params: [str("str"), str("prefix")],
      type: staticReturnType(StringType),
      refineResult: refineNonNull,
      impl: (args) => {
        const s = asString(args[0] as Value);
        const p = asString(args[1] as Value);
        return { ok: true, value: stringVal(s.startsWith(p) ? s.slice(p.length) : s) };
      },
    }),
    trimsuffix: new Func({
      params: [str("str"), str("suffix")],
      type: staticReturnType(StringType),
      refineResult: refineNonNull,
      impl: (args) => {
        const s = asString(args[0] as Value);
        const p = asString(args[1] as Value);
        return { ok: true, value: stringVal(p !== "" && s.endsWith(p) ? s.slice(0, s.length - p.length) : s) };
      },
    }),

    indent: new Func({
      params: [{ name: "spaces", type: NumberType }, str("str")],
      type: staticReturnType(StringType),
      refineResult: refineNonNull,
      impl: (args) => {
        const n = goInt(args[0] as Value);
        if (!n.ok) return callError(n.error);
        // strings.Repeat panics on a negative count; cty reports the recovered panic.
        if (n.value < 0n) return callError("panic in function implementation: strings: negative Repeat count");
        // Go would try to allocate the padding (and die); refuse sizes no string can hold.
        if (n.value > MAX_PAD) return callError("panic in function implementation: strings: Repeat output length overflow");
        const s = asString(args[1] as Value);
        if (!s.includes("\n")) return { ok: true, value: stringVal(s) };
        return { ok: true, value: stringVal(s.split("\n").join("\n" + " ".repeat(Number(n.value)))) };
      },
    }),

    join: new Func({
      params: [str("separator")],
      varParam: { name: "lists", type: listOf(StringType) },
      type: staticReturnType(StringType),
      refineResult: refineNonNull,
      impl: (args) => {
        const sep = asString(args[0] as Value);
        const lists = args.slice(1);
        if (lists.length < 1) return callError("at least one list is required");
        if (lists.some((l) => !isWhollyKnownList(l))) return { ok: true, value: unknownVal(StringType) };
        const items: string[] = [];
        for (let li = 0; li < lists.length; li++) {
          const l = lists[li] as Value;
          const elems = l.kind === "list" ? l.elements : [];
          for (let ei = 0; ei < elems.length; ei++) {
            const e = elems[ei] as Value;
            if (e.kind === "null") {
              const which = lists.length > 1 ? `element ${ei} of list ${li + 1}` : `element ${ei}`;
              return argError(li + 1, `${which} is null; cannot concatenate null values`);
            }
            items.push(asString(e));
          }
        }
        return { ok: true, value: stringVal(items.join(sep)) };
      },
    }),

    split: new Func({
      params: [str("separator"), str("str")],
      type: staticReturnType(listOf(StringType)),
      refineResult: refineNonNull,
      impl: (args) => {
        const parts = goSplit(asString(args[1] as Value), asString(args[0] as Value));
        return { ok: true, value: parts.length === 0 ? listValEmpty(StringType) : listVal(parts.map(stringVal)) };
      },
    }),

    substr: new Func({
      params: [str("str", { allowDynamicType: true }), { name: "offset", type: NumberType, allowDynamicType: true }, { name: "length", type: NumberType, allowDynamicType: true }],
      type: staticReturnType(StringType),
      refineResult: refineNonNull,
      impl: (args) => {
        const off = goInt(args[1] as Value);
        if (!off.ok) return callError(off.error);
        const len = goInt(args[2] as Value);
        if (!len.ok) return callError(len.error);
        return { ok: true, value: stringVal(substr(asString(args[0] as Value), off.value, len.value)) };
      },
    }),

    replace: new Func({
      params: [str("str"), str("substr"), str("replace")],
      type: staticReturnType(StringType),
      refineResult: refineNonNull,
      impl: (args) => {
        const s = asString(args[0] as Value);
        const sub = asString(args[1] as Value);
        const rep = asString(args[2] as Value);
        if (sub.length > 1 && sub.startsWith("/") && sub.endsWith("/")) {
          const c = compileRegexp(sub.slice(1, -1));
          if (!c.ok) return callError(`error parsing regexp: ${c.code}: \`${c.expr}\``);
          return { ok: true, value: stringVal(c.re.replaceAll(s, rep)) };
        }
        return { ok: true, value: stringVal(goReplaceAll(s, sub, rep)) };
      },
    }),

    startswith: new Func({
      params: [str("str", { allowUnknown: true }), str("prefix")],
      type: staticReturnType(BoolType),
      refineResult: refineNonNull,
      impl: (args) => {
        const s = args[0] as Value;
        const prefix = asString(args[1] as Value);
        if (s.kind === "unknown") {
          // A refined prefix can decide the answer before the string is known.
          if (prefix === "") return { ok: true, value: True };
          const known = s.refinement.stringPrefix ?? "";
          if (known !== "") {
            if (known.startsWith(prefix)) return { ok: true, value: True };
            if (utf8Length(known) >= utf8Length(prefix)) return { ok: true, value: False };
          }
          return { ok: true, value: unknownVal(BoolType) };
        }
        return { ok: true, value: asString(s).startsWith(prefix) ? True : False };
      },
    }),

    endswith: new Func({
      params: [str("str"), str("suffix")],
      type: staticReturnType(BoolType),
      refineResult: refineNonNull,
      impl: (args) => ({ ok: true, value: asString(args[0] as Value).endsWith(asString(args[1] as Value)) ? True : False }),
    }),

    // OpenTofu gives strcontains no result refinement, so its unknown result may be null.
    strcontains: new Func({
      params: [str("str"), str("substr")],
      type: staticReturnType(BoolType),
      impl: (args) => ({ ok: true, value: asString(args[0] as Value).includes(asString(args[1] as Value)) ? True : False }),
    }),
  };
}

function isWhollyKnownList(v: Value): boolean {
  return v.kind === "list" && v.elements.every((e) => e.kind !== "unknown");
}
