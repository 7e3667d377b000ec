// The `format` verb language of cty's stdlib (format_fsm.rl + format.go): a scanner for
// `%[flags][width][.prec][[n]]verb` with cty's error texts and byte offsets, and the verbs
// themselves. Numeric verbs reproduce what Go's fmt does with *big.Int (%b %d %o %x %X) and
// *big.Float (%e %E %f %g %G), because cty hands those to fmt.Sprintf; %v, %s and %q are cty's own
// (widths and precisions counted in grapheme clusters).
import {
  BigFloat,
  BoolType,
  NumberType,
  StringType,
  asNumber,
  asString,
  convert,
  goJSONString,
  goQuote,
  marshalJSON,
  type Value,
} from "../../values/index.js";
import { graphemes, utf8Length } from "./unicode.js";

interface Verb {
  raw: string;
  /** Byte offset of the `%` in the format string. */
  offset: number;
  argNum: number;
  mode: string;
  zero: boolean;
  sharp: boolean;
  plus: boolean;
  minus: boolean;
  space: boolean;
  /** Go's fmt clears the zero flag when `-` is given (cty's own padding does not). */
  goZero: boolean;
  width: number; // -1 when absent
  prec: number; // -1 when absent
}

/** An error from formatting; `argIndex` (1-based among the values) marks cty's ArgErrors. */
export interface FormatError {
  message: string;
  argIndex?: number;
}

export type FormatResult = { ok: true; value: string } | { ok: false; error: FormatError };

/** Widths and precisions beyond this cannot produce a JavaScript string. */
const MAX_WIDTH = 1 << 28;

const fail = (message: string, argIndex?: number): FormatResult => ({ ok: false, error: argIndex === undefined ? { message } : { message, argIndex } });

/** Go's strconv.QuoteRune, as `%q` prints a rune. */
export function goQuoteRune(cp: number): string {
  if (cp === 0x27) return "'\\''";
  if (cp === 0x22) return "'\"'";
  const q = goQuote(String.fromCodePoint(cp));
  return "'" + q.slice(1, -1) + "'";
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";
const isLetter = (c: string | undefined): boolean => c !== undefined && ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z"));

/** formatFSM: scans `format`, formatting each verb with `args`. */
export function formatString(format: string, args: readonly Value[]): FormatResult {
  const chars = [...format];
  const offsets: number[] = [];
  let off = 0;
  for (const c of chars) {
    offsets.push(off);
    off += utf8Length(c);
  }
  offsets.push(off);
  const total = off;
  let out = "";
  let nextArg = 1;
  let highest = 0;
  let i = 0;
  const errChar = (at: number): FormatResult => fail(`unrecognized format character ${goQuoteRune(chars[at]?.codePointAt(0) ?? 0)} at offset ${offsets[at]}`);
  while (i < chars.length) {
    const c = chars[i] as string;
    if (c !== "%") {
      out += c;
      i++;
      continue;
    }
    const start = i;
    i++;
    if (i >= chars.length) return fail(`invalid format string starting at offset ${total}`);
    if (chars[i] === "%") {
      out += "%";
      i++;
      continue;
    }
    const verb: Verb = {
      raw: "",
      offset: offsets[start] as number,
      argNum: nextArg,
      mode: "",
      zero: false,
      sharp: false,
      plus: false,
      minus: false,
      space: false,
      goZero: false,
      width: -1,
      prec: -1,
    };
    for (; i < chars.length; i++) {
      const f = chars[i];
      if (f === "0") {
        verb.zero = true;
        verb.goZero = !verb.minus;
      } else if (f === "#") verb.sharp = true;
      else if (f === "-") {
        verb.minus = true;
        verb.goZero = false;
      } else if (f === "+") verb.plus = true;
      else if (f === " ") verb.space = true;
      else break;
    }
    if (i < chars.length && isDigit(chars[i])) {
      verb.width = 0;
      while (isDigit(chars[i])) verb.width = verb.width * 10 + Number(chars[i++]);
    }
    if (chars[i] === ".") {
      i++;
      verb.prec = 0;
      while (isDigit(chars[i])) verb.prec = verb.prec * 10 + Number(chars[i++]);
    }
    if (chars[i] === "[") {
      i++;
      if (!isDigit(chars[i]) || chars[i] === "0") return i >= chars.length ? fail(`invalid format string starting at offset ${total}`) : errChar(i);
      verb.argNum = 0;
      while (isDigit(chars[i])) verb.argNum = verb.argNum * 10 + Number(chars[i++]);
      if (i >= chars.length) return fail(`invalid format string starting at offset ${total}`);
      if (chars[i] !== "]") return errChar(i);
      i++;
    }
    if (i >= chars.length) return fail(`invalid format string starting at offset ${total}`);
    if (!isLetter(chars[i])) return errChar(i);
    // Go would try to build the padding; refuse sizes no string can hold rather than crash.
    if (verb.width > MAX_WIDTH || verb.prec > MAX_WIDTH) return fail(`width or precision too large at offset ${offsets[start]}`);
    verb.mode = chars[i] as string;
    i++;
    verb.raw = chars.slice(start, i).join("");
    if (verb.argNum > highest) highest = verb.argNum;
    const r = formatAppend(verb, args);
    if (!r.ok) return r;
    out += r.value;
    nextArg = verb.argNum + 1;
  }
  if (highest < args.length) {
    if (highest === 0) return fail("too many arguments; no verbs in format string", highest + 1);
    return fail(`too many arguments; only ${highest} used by format string`, highest + 1);
  }
  return { ok: true, value: out };
}

function formatAppend(verb: Verb, args: readonly Value[]): FormatResult {
  const at = `${goQuote(verb.raw)} at ${verb.offset}`;
  if (verb.argNum - 1 >= args.length) {
    return fail(`not enough arguments for ${at}: need index ${verb.argNum} but have ${args.length} total`);
  }
  const arg = args[verb.argNum - 1] as Value;
  if (verb.mode !== "v" && arg.kind === "null") return fail(`unsupported value for ${at}: null value cannot be formatted`);
  switch (verb.mode) {
    case "v":
      return formatAsIs(verb, arg, at);
    case "t": {
      const c = convert(arg, BoolType);
      if (!c.ok) return fail(`unsupported value for ${at}: ${c.error.message}`);
      return { ok: true, value: c.value.kind === "bool" && c.value.value ? "true" : "false" };
    }
    case "b":
    case "d":
    case "o":
    case "x":
    case "X":
    case "e":
    case "E":
    case "f":
    case "g":
    case "G": {
      const c = convert(arg, NumberType);
      if (!c.ok) return fail(`unsupported value for ${at}: ${c.error.message}`);
      const n = asNumber(c.value);
      if ("bdoxX".includes(verb.mode)) {
        const bi = n.isInt() ? n.toBigInt() : undefined;
        if (bi === undefined) return fail(`unsupported value for ${at}: an integer is required`);
        return { ok: true, value: goFormatInt(verb, bi) };
      }
      return { ok: true, value: goFormatFloat(verb, n) };
    }
    case "s":
    case "q":
      return formatAppendString(verb, arg, at);
    default:
      return fail(`unsupported format verb ${goQuoteRune(verb.mode.codePointAt(0) as number)} in ${goQuote(verb.raw)} at offset ${verb.offset}`);
  }
}

function formatAsIs(verb: Verb, arg: Value, at: string): FormatResult {
  if (!verb.sharp) {
    if (arg.kind === "string") return { ok: true, value: padWidth(verb, arg.value) };
    if (arg.kind === "number") return { ok: true, value: padWidth(verb, arg.value.text("g")) };
  }
  const j = marshalJSON(arg, arg.type);
  if (!j.ok) return fail(`unsupported value for ${at}: ${j.error.message}`);
  return { ok: true, value: padWidth(verb, j.value) };
}

function formatAppendString(verb: Verb, arg: Value, at: string): FormatResult {
  const c = convert(arg, StringType);
  if (!c.ok) return fail(`unsupported value for ${at}: ${c.error.message}`);
  let s = asString(c.value);
  if (verb.prec > 0) s = graphemes(s).slice(0, verb.prec).join("");
  return { ok: true, value: padWidth(verb, verb.mode === "q" ? goJSONString(s) : s) };
}

/** cty's formatPadWidth: pads to the width in grapheme clusters, with zeros when `0` was given. */
function padWidth(verb: Verb, s: string): string {
  if (verb.width < 0) return s;
  const have = graphemes(s).length;
  if (have >= verb.width) return s;
  const pad = (verb.zero ? "0" : " ").repeat(verb.width - have);
  return verb.minus ? s + pad : pad + s;
}

/** What fmt.Sprintf does with a *big.Int for %b %d %o %x %X. */
function goFormatInt(verb: Verb, n: bigint): string {
  const base = verb.mode === "b" ? 2 : verb.mode === "o" ? 8 : verb.mode === "d" ? 10 : 16;
  const neg = n < 0n;
  let digits = (neg ? -n : n).toString(base);
  if (verb.mode === "X") digits = digits.toUpperCase();
  const sign = neg ? "-" : verb.plus ? "+" : verb.space ? " " : "";
  let prefix = "";
  if (verb.sharp) prefix = verb.mode === "b" ? "0b" : verb.mode === "o" ? "0" : verb.mode === "x" ? "0x" : verb.mode === "X" ? "0X" : "";
  let zeros = 0;
  let left = 0;
  let right = 0;
  if (verb.prec >= 0) {
    if (digits.length < verb.prec) zeros = verb.prec - digits.length;
    else if (digits === "0" && verb.prec === 0) return "";
  }
  const length = sign.length + prefix.length + zeros + digits.length;
  if (verb.width >= 0 && length < verb.width) {
    const d = verb.width - length;
    if (verb.minus) right = d;
    else if (verb.goZero && verb.prec < 0) zeros = d;
    else left = d;
  }
  return " ".repeat(left) + sign + prefix + "0".repeat(zeros) + digits + " ".repeat(right);
}

/** What fmt.Sprintf does with a *big.Float for %e %E %f %g %G (big.Float.Format). */
function goFormatFloat(verb: Verb, n: BigFloat): string {
  const mode = verb.mode as "e" | "E" | "f" | "g" | "G";
  let prec = verb.prec;
  if (prec < 0 && mode !== "g" && mode !== "G") prec = 6;
  let buf = n.text(mode, prec);
  let sign = "";
  if (buf.startsWith("-")) {
    sign = "-";
    buf = buf.slice(1);
  } else if (buf.startsWith("+")) {
    sign = verb.space ? " " : "+";
    buf = buf.slice(1);
  } else if (verb.plus) sign = "+";
  else if (verb.space) sign = " ";
  const padding = verb.width > sign.length + buf.length ? verb.width - sign.length - buf.length : 0;
  if (verb.goZero && !n.isInf()) return sign + "0".repeat(padding) + buf;
  if (verb.minus) return sign + buf + " ".repeat(padding);
  return " ".repeat(padding) + sign + buf;
}
