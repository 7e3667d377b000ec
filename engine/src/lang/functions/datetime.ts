// Built-in functions: datetime (formatdate, timeadd, timecmp, timestamp, plantimestamp), as
// OpenTofu defines them. `formatdate` and `timeadd` are go-cty's (strict RFC 3339; formatdate has
// its own format language); `timecmp` is OpenTofu's own, which parses with Go's more lenient
// time.Parse and words some errors differently (see ./gotime.ts). `timestamp` reads `ctx.now`; `plantimestamp`
// reads `ctx.planTimestamp` and is unknown without one (as during validation).
import {
  Func,
  NumberType,
  StringType,
  argError,
  asString,
  callError,
  goQuote,
  numberIntVal,
  refineNonNull,
  staticReturnType,
  stringVal,
  unknownVal,
  type FunctionResult,
  type Value,
} from "../../values/index.js";
import type { FunctionContext } from "./context.js";
import {
  MONTH_NAMES,
  WEEKDAY_NAMES,
  addDuration,
  civil,
  compareTimes,
  formatOffset,
  formatRFC3339,
  fromDate,
  padInt,
  parseDuration,
  parseTimestampCty,
  parseTimestampOpenTofu,
  type GoTime,
} from "./gotime.js";

function ok(value: Value): FunctionResult<Value> {
  return { ok: true, value };
}

/** go-cty's splitDateFormat: quoted literals, runs of one letter, and other literal text. */
function splitDateFormat(format: string): string[] {
  const tokens: string[] = [];
  const isLetter = (c: string | undefined) => c !== undefined && ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z"));
  let i = 0;
  while (i < format.length) {
    const c = format[i] as string;
    let end: number;
    if (c === "'") {
      if (format[i + 1] === "'") {
        end = i + 2;
      } else {
        // Up to the closing quote, skipping doubled quotes; an unclosed quote takes the rest.
        end = format.length;
        for (let j = i + 1; j < format.length; j++) {
          if (format[j] !== "'") continue;
          if (j + 1 === format.length) break;
          if (format[j + 1] === "'") {
            j++;
            continue;
          }
          end = j + 1;
          break;
        }
      }
    } else if (isLetter(c)) {
      end = i + 1;
      while (end < format.length && format[end] === c) end++;
    } else {
      end = i + 1;
      while (end < format.length && format[end] !== "'" && !isLetter(format[end])) end++;
    }
    tokens.push(format.slice(i, end));
    i = end;
  }
  return tokens;
}

type FormatResult = { ok: true; text: string } | { ok: false; error: string };

function formatDate(format: string, t: GoTime): FormatResult {
  const c = civil(t);
  let out = "";
  const bad = (tok: string, why: string): FormatResult => ({ ok: false, error: `invalid date format verb ${goQuote(tok)}: ${why}` });
  for (const tok of splitDateFormat(format)) {
    const n = tok.length;
    switch (tok[0]) {
      case "'": {
        if (tok[n - 1] !== "'" || n === 1) return { ok: false, error: "unterminated literal '" };
        if (n === 2) {
          out += "'";
          break;
        }
        const raw = tok.slice(1, -1);
        for (let i = 0; i < raw.length; i++) {
          out += raw[i];
          if (raw[i] === "'") i++; // a doubled quote stands for one
        }
        break;
      }
      case "Y":
        if (n === 2) out += padInt(c.year % 100, 2);
        else if (n === 4) out += padInt(c.year, 4);
        else return bad(tok, 'year must either be "YY" or "YYYY"');
        break;
      case "M":
        if (n === 1) out += String(c.month);
        else if (n === 2) out += padInt(c.month, 2);
        else if (n === 3) out += (MONTH_NAMES[c.month - 1] as string).slice(0, 3);
        else if (n === 4) out += MONTH_NAMES[c.month - 1] as string;
        else return bad(tok, 'month must be "M", "MM", "MMM", or "MMMM"');
        break;
      case "D":
        if (n === 1) out += String(c.day);
        else if (n === 2) out += padInt(c.day, 2);
        else return bad(tok, 'day of month must either be "D" or "DD"');
        break;
      case "E":
        if (n === 3) out += (WEEKDAY_NAMES[c.weekday] as string).slice(0, 3);
        else if (n === 4) out += WEEKDAY_NAMES[c.weekday] as string;
        else return bad(tok, 'day of week must either be "EEE" or "EEEE"');
        break;
      case "h":
        if (n === 1) out += String(c.hour);
        else if (n === 2) out += padInt(c.hour, 2);
        else return bad(tok, '24-hour must either be "h" or "hh"');
        break;
      case "H": {
        const h = c.hour % 12 === 0 ? 12 : c.hour % 12;
        if (n === 1) out += String(h);
        else if (n === 2) out += padInt(h, 2);
        else return bad(tok, '12-hour must either be "H" or "HH"');
        break;
      }
      case "A":
      case "a": {
        const letter = tok[0];
        if (n !== 2) return bad(tok, `must be "${letter}${letter}"`);
        const pm = c.hour >= 12;
        out += letter === "A" ? (pm ? "PM" : "AM") : pm ? "pm" : "am";
        break;
      }
      case "m":
        if (n === 1) out += String(c.minute);
        else if (n === 2) out += padInt(c.minute, 2);
        else return bad(tok, 'minute must either be "m" or "mm"');
        break;
      case "s":
        if (n === 1) out += String(c.second);
        else if (n === 2) out += padInt(c.second, 2);
        else return bad(tok, 'second must either be "s" or "ss"');
        break;
      case "Z":
        if (n === 1) out += formatOffset(t.offset, "Z07:00");
        else if (n === 3) {
          const z = formatOffset(t.offset, "-0700");
          out += z === "+0000" ? "UTC" : z;
        } else if (n === 4) out += formatOffset(t.offset, "-0700");
        else if (n === 5) out += formatOffset(t.offset, "-07:00");
        else return bad(tok, "timezone must be Z, ZZZZ, or ZZZZZ");
        break;
      default:
        if (/^[A-Za-z]/.test(tok)) return { ok: false, error: `invalid date format verb ${goQuote(tok)}` };
        out += tok;
    }
  }
  return { ok: true, text: out };
}

const formatdate = new Func({
  params: [
    { name: "format", type: StringType },
    { name: "time", type: StringType },
  ],
  type: staticReturnType(StringType),
  refineResult: refineNonNull,
  impl: (args) => {
    const t = parseTimestampCty(asString(args[1] as Value), goQuote);
    if (!t.ok) return argError(1, t.error);
    const r = formatDate(asString(args[0] as Value), t.time);
    return r.ok ? ok(stringVal(r.text)) : argError(0, r.error);
  },
});

// go-cty's TimeAddFunc declares no result refinement.
const timeadd = new Func({
  params: [
    { name: "timestamp", type: StringType },
    { name: "duration", type: StringType },
  ],
  type: staticReturnType(StringType),
  impl: (args) => {
    const t = parseTimestampCty(asString(args[0] as Value), goQuote);
    if (!t.ok) return callError(t.error);
    const d = parseDuration(asString(args[1] as Value));
    if (!d.ok) return callError(d.error);
    return ok(stringVal(formatRFC3339(addDuration(t.time, d.ns))));
  },
});

const timecmp = new Func({
  params: [
    { name: "timestamp_a", type: StringType },
    { name: "timestamp_b", type: StringType },
  ],
  type: staticReturnType(NumberType),
  refineResult: refineNonNull,
  impl: (args) => {
    const a = parseTimestampOpenTofu(asString(args[0] as Value), goQuote);
    if (!a.ok) return argError(0, a.error);
    const b = parseTimestampOpenTofu(asString(args[1] as Value), goQuote);
    if (!b.ok) return argError(1, b.error);
    return ok(numberIntVal(compareTimes(a.time, b.time)));
  },
});

export function datetimeFunctions(ctx: FunctionContext): Record<string, Func> {
  return {
    formatdate,
    timeadd,
    timecmp,
    // Impure: the evaluator makes it unknown during plan, as OpenTofu does for its impure functions.
    timestamp: new Func({
      params: [],
      type: staticReturnType(StringType),
      refineResult: refineNonNull,
      impl: () => ok(stringVal(formatRFC3339(fromDate(ctx.now())))),
    }),
    // OpenTofu's console has no plantimestamp (it has `type` instead): the console leaves it out.
    plantimestamp: new Func({
      params: [],
      type: staticReturnType(StringType),
      impl: () => {
        const at = ctx.planTimestamp;
        // Without a plan (validation, console) OpenTofu answers unknown, and does not refine it.
        return ok(at === undefined ? unknownVal(StringType) : stringVal(formatRFC3339(fromDate(at))));
      },
    }),
  };
}
