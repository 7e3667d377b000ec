// Go's time handling as far as OpenTofu's date functions rely on it: RFC 3339 parsing (Go's
// lenient time.Parse with its ParseError details, and go-cty's strict parser), the two ways
// those errors are turned into messages (OpenTofu's own for timeadd/timecmp, go-cty's for
// formatdate), time.ParseDuration, and formatting with a fixed UTC offset. Instants are exact
// nanoseconds, so years beyond JavaScript's Date range and nanosecond fractions are kept.

export interface GoTime {
  /** Nanoseconds since 1970-01-01T00:00:00Z. */
  readonly ns: bigint;
  /** The UTC offset the time was written with, in seconds east of UTC. */
  readonly offset: number;
}

/** time.ParseError's fields. */
export interface ParseError {
  readonly value: string;
  readonly layoutElem: string;
  readonly valueElem: string;
  readonly message: string;
}

export type ParseResult = { ok: true; time: GoTime } | { ok: false; error: ParseError };

const RFC3339 = "2006-01-02T15:04:05Z07:00";
const NS_PER_SEC = 1_000_000_000n;
const NS_PER_DAY = 86_400n * NS_PER_SEC;

function isDigit(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 0x30 && c <= 0x39;
}

function isLeap(y: number): boolean {
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(month: number, year: number): number {
  if (month === 2 && isLeap(year)) return 29;
  return DAYS_IN_MONTH[month - 1] ?? 0;
}

/** Days since 1970-01-01 of a proleptic Gregorian date. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

function makeTime(year: number, month: number, day: number, hour: number, min: number, sec: number, nsec: number, offset: number): GoTime {
  const days = BigInt(daysFromCivil(year, month, day));
  const secs = BigInt(hour * 3600 + min * 60 + sec - offset);
  return { ns: days * NS_PER_DAY + secs * NS_PER_SEC + BigInt(nsec), offset };
}

/** The zero time.Time (0001-01-01T00:00:00Z). */
const ZERO_TIME: GoTime = makeTime(1, 1, 1, 0, 0, 0, 0, 0);

/** Go's getnum: one or two leading digits (exactly two when `fixed`). */
function getnum(s: string, fixed: boolean): [number, string, boolean] {
  if (!isDigit(s, 0)) return [0, s, false];
  if (!isDigit(s, 1)) {
    if (fixed) return [0, s, false];
    return [s.charCodeAt(0) - 0x30, s.slice(1), true];
  }
  return [(s.charCodeAt(0) - 0x30) * 10 + (s.charCodeAt(1) - 0x30), s.slice(2), true];
}

/** Go's atoi: an optional sign and decimal digits, nothing else. */
function atoi(s: string): number | undefined {
  let t = s;
  let neg = false;
  if (t.length > 0 && (t[0] === "-" || t[0] === "+")) {
    neg = t[0] === "-";
    t = t.slice(1);
  }
  if (!/^[0-9]*$/.test(t)) return undefined;
  // Go's leadingInt accepts an empty digit string as 0.
  const n = t === "" ? 0 : Number(t);
  return neg ? -n : n;
}

/** Go's parseNanoseconds: `value` starts with the separator; `n` bytes form the fraction. */
function parseNanoseconds(value: string, n: number): number {
  const len = Math.min(n, 10);
  const ns = atoi(value.slice(1, len)) ?? 0;
  return ns * 10 ** (10 - len);
}

function perr(value: string, layoutElem: string, valueElem: string, message: string): { ok: false; error: ParseError } {
  return { ok: false, error: { value, layoutElem, valueElem, message } };
}

/** Go's time.Parse(time.RFC3339, s), with the ParseError it gives for bad input. */
export function parseGoRFC3339(s: string): ParseResult {
  const steps: ReadonlyArray<[string, string]> = [
    ["", "2006"],
    ["-", "01"],
    ["-", "02"],
    ["T", "15"],
    [":", "04"],
    [":", "05"],
    ["", "Z07:00"],
  ];
  let value = s;
  let year = 0;
  let month = -1;
  let day = -1;
  let hour = 0;
  let min = 0;
  let sec = 0;
  let nsec = 0;
  let offset = 0;
  for (const [prefix, std] of steps) {
    if (prefix !== "") {
      if (value.length === 0 || value[0] !== prefix) return perr(s, prefix, value, "");
      value = value.slice(1);
    }
    const hold = value;
    let good = true;
    let rangeErr = "";
    switch (std) {
      case "2006": {
        if (value.length < 4 || !isDigit(value, 0)) {
          good = false;
          break;
        }
        const y = atoi(value.slice(0, 4));
        value = value.slice(4);
        if (y === undefined) good = false;
        else year = y;
        break;
      }
      case "01":
        [month, value, good] = getnum(value, true);
        if (good && (month <= 0 || month > 12)) rangeErr = "month";
        break;
      case "02":
        [day, value, good] = getnum(value, true);
        break;
      case "15":
        [hour, value, good] = getnum(value, false);
        if (hour < 0 || hour >= 24) rangeErr = "hour";
        break;
      case "04":
        [min, value, good] = getnum(value, true);
        if (min < 0 || min >= 60) rangeErr = "minute";
        break;
      case "05":
        [sec, value, good] = getnum(value, true);
        if (!good) break;
        if (sec < 0 || sec >= 60) {
          rangeErr = "second";
          break;
        }
        // A fractional second the layout does not mention is still accepted.
        if (value.length >= 2 && (value[0] === "." || value[0] === ",") && isDigit(value, 1)) {
          let n = 2;
          while (n < value.length && isDigit(value, n)) n++;
          nsec = parseNanoseconds(value, n);
          value = value.slice(n);
        }
        break;
      default: {
        // Z07:00
        if (value.length >= 1 && value[0] === "Z") {
          value = value.slice(1);
          offset = 0;
          break;
        }
        if (value.length < 6 || value[3] !== ":") {
          good = false;
          break;
        }
        const sign = value[0];
        const hh = value.slice(1, 3);
        const mm = value.slice(4, 6);
        value = value.slice(6);
        let hr = 0;
        let mi = 0;
        [hr, , good] = getnum(hh, true);
        if (good) [mi, , good] = getnum(mm, true);
        // Go allows 24 hours and 60 minutes here; only larger values are out of range.
        if (hr > 24) rangeErr = "time zone offset hour";
        if (mi > 60) rangeErr = "time zone offset minute";
        offset = (hr * 60 + mi) * 60;
        if (sign === "-") offset = -offset;
        else if (sign !== "+") good = false;
        break;
      }
    }
    if (rangeErr !== "") return perr(s, std, value, `: ${rangeErr} out of range`);
    if (!good) return perr(s, std, hold, "");
  }
  if (value.length !== 0) return perr(s, "", value, `: extra text: ${timeQuote(value)}`);
  if (day < 1 || day > daysIn(month, year)) return perr(s, "", value, ": day out of range");
  return { ok: true, time: makeTime(year, month, day, hour, min, sec, nsec, offset) };
}

/** go-cty's strict RFC 3339 parser (fixed widths, "." fractions, offsets within ±23:59). */
function parseStrictFast(s: string): GoTime | undefined {
  if (s.length < 19) return undefined;
  let good = true;
  const num = (t: string, lo: number, hi: number): number => {
    if (!/^[0-9]+$/.test(t)) {
      good = false;
      return lo;
    }
    const n = Number(t);
    if (n < lo || n > hi) {
      good = false;
      return lo;
    }
    return n;
  };
  const year = num(s.slice(0, 4), 0, 9999);
  const month = num(s.slice(5, 7), 1, 12);
  const day = num(s.slice(8, 10), 1, daysIn(month, year));
  const hour = num(s.slice(11, 13), 0, 23);
  const min = num(s.slice(14, 16), 0, 59);
  const sec = num(s.slice(17, 19), 0, 59);
  if (!good || s[4] !== "-" || s[7] !== "-" || s[10] !== "T" || s[13] !== ":" || s[16] !== ":") return undefined;
  let rest = s.slice(19);
  let nsec = 0;
  if (rest.length >= 2 && rest[0] === "." && isDigit(rest, 1)) {
    let n = 2;
    while (n < rest.length && isDigit(rest, n)) n++;
    nsec = parseNanoseconds(rest, n);
    rest = rest.slice(n);
  }
  let offset = 0;
  if (rest !== "Z") {
    if (rest.length !== 6) return undefined;
    const hr = num(rest.slice(1, 3), 0, 23);
    const mm = num(rest.slice(4, 6), 0, 59);
    if (!good || !((rest[0] === "-" || rest[0] === "+") && rest[3] === ":")) return undefined;
    offset = (hr * 60 + mm) * 60 * (rest[0] === "-" ? -1 : 1);
  }
  return makeTime(year, month, day, hour, min, sec, nsec, offset);
}

/** go-cty's parseStrictRFC3339: the strict parser, with Go's time.Parse only to explain failures. */
export function parseStrictRFC3339(s: string): ParseResult {
  const t = parseStrictFast(s);
  if (t) return { ok: true, time: t };
  const g = parseGoRFC3339(s);
  if (!g.ok) return g;
  // Go accepted what RFC 3339 does not: say which part is wrong.
  if (s[12] === ":") return perr(s, "15", s.slice(11, 12), ": hour must have two digits");
  if (s[19] === ",") return perr(s, ".", ",", ": sub-second separator must be a period");
  if (s[s.length - 1] !== "Z") {
    const num2 = (t2: string) => ((10 * (t2.charCodeAt(0) - 0x30) + (t2.charCodeAt(1) - 0x30)) & 0xff) >>> 0;
    if (num2(s.slice(s.length - 5)) >= 24) return perr(s, "Z07:00", s.slice(s.length - 6), ": timezone hour out of range");
    if (num2(s.slice(s.length - 2)) >= 60) return perr(s, "Z07:00", s.slice(s.length - 6), ": timezone minute out of range");
    // go-cty then returns the zero time without an error.
    return { ok: true, time: ZERO_TIME };
  }
  return perr(s, RFC3339, s, "");
}

/** The quoting of Go's time package: non-ASCII and control bytes as \x escapes. */
function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (c >= 0x80 || c < 0x20) {
      for (const b of new TextEncoder().encode(ch)) out += `\\x${b.toString(16).padStart(2, "0")}`;
    } else {
      if (ch === '"' || ch === "\\") out += "\\";
      out += ch;
    }
  }
  return `${out}"`;
}

/** time.ParseError.Error(). */
function parseErrorString(e: ParseError): string {
  if (e.message === "") {
    return `parsing time ${timeQuote(e.value)} as ${timeQuote(RFC3339)}: cannot parse ${timeQuote(e.valueElem)} as ${timeQuote(e.layoutElem)}`;
  }
  return `parsing time ${timeQuote(e.value)}${e.message}`;
}

function layoutElemName(layoutElem: string): string {
  switch (layoutElem) {
    case "2006":
      return "year";
    case "01":
      return "month";
    case "02":
      return "day of month";
    case "15":
      return "hour";
    case "04":
      return "minute";
    case "05":
      return "second";
    case "Z07:00":
      return "UTC offset";
    default:
      return "timestamp segment";
  }
}

type TimestampResult = { ok: true; time: GoTime } | { ok: false; error: string };

const NOT_VALID = "not a valid RFC3339 timestamp";

/**
 * The message for a ParseError, shared by OpenTofu's and go-cty's parseTimestamp; `quote` is
 * Go's %q. Returns undefined for the cases the two handle differently.
 */
function commonMessage(e: ParseError, quote: (s: string) => string): string | undefined {
  switch (e.layoutElem) {
    case "T":
      return `${NOT_VALID}: missing required time introducer 'T'`;
    case ":":
    case "-":
      return e.valueElem === "" ? `${NOT_VALID}: end of string where ${quote(e.layoutElem)} is expected` : `${NOT_VALID}: found ${quote(e.valueElem)} where ${quote(e.layoutElem)} is expected`;
    default:
      return undefined;
  }
}

/** OpenTofu's parseTimestamp (timeadd, timecmp): Go's lenient time.Parse. */
export function parseTimestampOpenTofu(s: string, quote: (s: string) => string): TimestampResult {
  const r = parseGoRFC3339(s);
  if (r.ok) return r;
  const e = r.error;
  if (e.layoutElem === "" && e.valueElem === "" && e.message !== "") return { ok: false, error: `${NOT_VALID}: ${parseErrorString(e)}` };
  const common = commonMessage(e, quote);
  if (common !== undefined) return { ok: false, error: common };
  const what = layoutElemName(e.layoutElem);
  if (e.valueElem === "") return { ok: false, error: `${NOT_VALID}: end of string before ${what}` };
  return { ok: false, error: `${NOT_VALID}: cannot use ${quote(e.valueElem)} as ${what}` };
}

/** go-cty's parseTimestamp (formatdate): strict RFC 3339. */
export function parseTimestampCty(s: string, quote: (s: string) => string): TimestampResult {
  const r = parseStrictRFC3339(s);
  if (r.ok) return r;
  const e = r.error;
  if (e.layoutElem === "" && e.valueElem === "" && e.message !== "") return { ok: false, error: `${NOT_VALID}${e.message}` };
  const common = commonMessage(e, quote);
  if (common !== undefined) return { ok: false, error: common };
  const what = layoutElemName(e.layoutElem);
  if (e.valueElem === "") return { ok: false, error: `${NOT_VALID}: end of string before ${what}` };
  if (what === "hour" && e.valueElem.includes(":")) return { ok: false, error: `${NOT_VALID}: hour must be between 0 and 23 inclusive` };
  if (what === "hour" && utf8Len(e.valueElem) !== 2) return { ok: false, error: `${NOT_VALID}: hour must have exactly two digits` };
  if (what === "minute" && utf8Len(e.valueElem) !== 2) return { ok: false, error: `${NOT_VALID}: minute must have exactly two digits` };
  return { ok: false, error: `${NOT_VALID}: cannot use ${quote(e.valueElem)} as ${what}` };
}

function utf8Len(s: string): number {
  return new TextEncoder().encode(s).length;
}

const UNITS: ReadonlyMap<string, bigint> = new Map([
  ["ns", 1n],
  ["us", 1_000n],
  ["µs", 1_000n], // U+00B5 micro sign
  ["μs", 1_000n], // U+03BC Greek mu
  ["ms", 1_000_000n],
  ["s", NS_PER_SEC],
  ["m", 60n * NS_PER_SEC],
  ["h", 3600n * NS_PER_SEC],
]);

const MAX_U63 = 1n << 63n;

export type DurationResult = { ok: true; ns: bigint } | { ok: false; error: string };

/** Go's time.ParseDuration, with its error texts. */
export function parseDuration(orig: string): DurationResult {
  const invalid: DurationResult = { ok: false, error: `time: invalid duration ${timeQuote(orig)}` };
  let s = orig;
  let neg = false;
  if (s !== "" && (s[0] === "-" || s[0] === "+")) {
    neg = s[0] === "-";
    s = s.slice(1);
  }
  if (s === "0") return { ok: true, ns: 0n };
  if (s === "") return invalid;
  let d = 0n;
  while (s !== "") {
    if (!(s[0] === "." || isDigit(s, 0))) return invalid;
    // Integer part.
    let v = 0n;
    let i = 0;
    for (; i < s.length && isDigit(s, i); i++) {
      if (v > MAX_U63 / 10n) return invalid;
      v = v * 10n + BigInt(s.charCodeAt(i) - 0x30);
      if (v > MAX_U63) return invalid;
    }
    const pre = i > 0;
    s = s.slice(i);
    // Fraction: digits beyond uint64 precision are skipped.
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s !== "" && s[0] === ".") {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      for (; j < s.length && isDigit(s, j); j++) {
        if (overflow) continue;
        if (f > (MAX_U63 - 1n) / 10n) {
          overflow = true;
          continue;
        }
        const y = f * 10n + BigInt(s.charCodeAt(j) - 0x30);
        if (y > MAX_U63) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) return invalid;
    // Unit: everything up to the next digit or ".".
    let k = 0;
    while (k < s.length && !(s[k] === "." || isDigit(s, k))) k++;
    if (k === 0) return { ok: false, error: `time: missing unit in duration ${timeQuote(orig)}` };
    const u = s.slice(0, k);
    s = s.slice(k);
    const unit = UNITS.get(u);
    if (unit === undefined) return { ok: false, error: `time: unknown unit ${timeQuote(u)} in duration ${timeQuote(orig)}` };
    if (v > MAX_U63 / unit) return invalid;
    v *= unit;
    if (f > 0n) {
      // float64, as Go computes it, so fractions round the same way.
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > MAX_U63) return invalid;
    }
    d += v;
    if (d > MAX_U63) return invalid;
  }
  if (neg) return { ok: true, ns: -d };
  if (d > MAX_U63 - 1n) return invalid;
  return { ok: true, ns: d };
}

export function addDuration(t: GoTime, ns: bigint): GoTime {
  return { ns: t.ns + ns, offset: t.offset };
}

export function compareTimes(a: GoTime, b: GoTime): number {
  return a.ns < b.ns ? -1 : a.ns > b.ns ? 1 : 0;
}

export interface Civil {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  /** 0 = Sunday. */
  readonly weekday: number;
}

/** The calendar fields of `t` in its own UTC offset. */
export function civil(t: GoTime): Civil {
  const local = t.ns + BigInt(t.offset) * NS_PER_SEC;
  let days = local / NS_PER_DAY;
  let rem = local % NS_PER_DAY;
  if (rem < 0n) {
    rem += NS_PER_DAY;
    days -= 1n;
  }
  const secOfDay = Number(rem / NS_PER_SEC);
  const d = Number(days);
  const { year, month, day } = civilFromDays(d);
  return {
    year,
    month,
    day,
    hour: Math.floor(secOfDay / 3600),
    minute: Math.floor(secOfDay / 60) % 60,
    second: secOfDay % 60,
    weekday: (((d + 4) % 7) + 7) % 7,
  };
}

/** Go's %0<width>d: zero padding after the sign, the sign counting toward the width. */
export function padInt(n: number, width: number): string {
  const sign = n < 0 ? "-" : "";
  return sign + String(Math.abs(n)).padStart(width - sign.length, "0");
}

/** Go's appendInt(year, 4) for layouts: the sign, then at least four digits. */
function layoutYear(n: number): string {
  return (n < 0 ? "-" : "") + String(Math.abs(n)).padStart(4, "0");
}

/** The offset as Go's "Z07:00" (utcZ), "-0700" or "-07:00" layouts write it. */
export function formatOffset(offset: number, style: "Z07:00" | "-0700" | "-07:00"): string {
  if (offset === 0 && style === "Z07:00") return "Z";
  let zone = Math.trunc(offset / 60);
  let sign = "+";
  if (zone < 0) {
    sign = "-";
    zone = -zone;
  }
  const hh = padInt(Math.trunc(zone / 60), 2);
  const mm = padInt(zone % 60, 2);
  return style === "-0700" ? `${sign}${hh}${mm}` : `${sign}${hh}:${mm}`;
}

/** t.Format(time.RFC3339). */
export function formatRFC3339(t: GoTime): string {
  const c = civil(t);
  return `${layoutYear(c.year)}-${padInt(c.month, 2)}-${padInt(c.day, 2)}T${padInt(c.hour, 2)}:${padInt(c.minute, 2)}:${padInt(c.second, 2)}${formatOffset(t.offset, "Z07:00")}`;
}

/** A JavaScript Date as a UTC GoTime (what time.Now().UTC() gives). */
export function fromDate(d: Date): GoTime {
  return { ns: BigInt(d.getTime()) * 1_000_000n, offset: 0 };
}

export const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
export const WEEKDAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
