// JSON as Go's encoding/json sees it: a strict parser over bytes that fails at the same byte
// offset and with the same text as Go's scanner (OpenTofu prints both to users), keeps number text
// and the raw byte span of every value (json.RawMessage), and the two output passes Go applies when
// writing: compact (RawMessage) and Indent (MarshalIndent). The one JSON parser of the engine:
// `json.ts` (cty's JSON decoding) and `states` (state and lock files) both read through it.

export type JsonNode =
  | { readonly t: "object"; readonly entries: Array<[string, JsonNode]>; readonly start: number; readonly end: number }
  | { readonly t: "array"; readonly items: JsonNode[]; readonly start: number; readonly end: number }
  | { readonly t: "string"; readonly v: string; readonly start: number; readonly end: number }
  | { readonly t: "number"; readonly raw: string; readonly start: number; readonly end: number }
  | { readonly t: "bool"; readonly v: boolean; readonly start: number; readonly end: number }
  | { readonly t: "null"; readonly start: number; readonly end: number };

/**
 * Go's *json.SyntaxError: Offset counts the bytes read up to and including the bad one. `kind`
 * tells callers with their own wording apart: `trailing` is text after a complete top-level value
 * (cty calls it extraneous data), `depth` is nesting past Go's limit or past what the stack holds.
 */
export interface JsonSyntaxError {
  readonly message: string;
  readonly offset: number;
  readonly kind: "syntax" | "trailing" | "depth";
}

export type JsonParseResult = { ok: true; node: JsonNode } | { ok: false; error: JsonSyntaxError };

const MAX_DEPTH = 10000; // Go's maxNestingDepth
const MAX_DEPTH_MESSAGE = "exceeded max depth";
const utf8 = new TextDecoder("utf-8", { fatal: false });

class SyntaxFailure {
  constructor(readonly error: JsonSyntaxError) {}
}

function quoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return "'\"'";
  const s = String.fromCharCode(c);
  return c >= 0x20 && c < 0x7f ? `'${s}'` : JSON.stringify(s);
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

function hexValue(c: number): number {
  return c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10;
}

const NO_ENTRIES: Array<[string, JsonNode]> = [];
const NO_ITEMS: JsonNode[] = [];

class Parser {
  pos = 0;
  depth = 0;
  /** Above zero inside a value kept as raw text: validated as usual, but no tree is built. */
  skimming = 0;
  constructor(
    readonly src: Uint8Array,
    readonly rawKeys: ReadonlySet<string> | undefined,
  ) {}

  fail(context: string, kind: "syntax" | "trailing" = "syntax"): never {
    if (this.pos >= this.src.length) throw new SyntaxFailure({ message: "unexpected end of JSON input", offset: this.src.length, kind });
    const c = this.src[this.pos] as number;
    throw new SyntaxFailure({ message: `invalid character ${quoteChar(c)} ${context}`, offset: this.pos + 1, kind });
  }

  skipSpace(): void {
    while (this.pos < this.src.length && isSpace(this.src[this.pos] as number)) this.pos++;
  }

  document(): JsonNode {
    this.skipSpace();
    const node = this.value("looking for beginning of value");
    this.skipSpace();
    if (this.pos < this.src.length) this.fail("after top-level value", "trailing");
    return node;
  }

  value(context: string): JsonNode {
    const c = this.src[this.pos];
    const start = this.pos;
    switch (c) {
      case 0x7b: // {
        return this.object();
      case 0x5b: // [
        return this.array();
      case 0x22: // "
        return { t: "string", v: this.string(), start, end: this.pos };
      case 0x74: // t
        this.literal("true");
        return { t: "bool", v: true, start, end: this.pos };
      case 0x66:
        this.literal("false");
        return { t: "bool", v: false, start, end: this.pos };
      case 0x6e:
        this.literal("null");
        return { t: "null", start, end: this.pos };
      default:
        if (c === 0x2d || (c !== undefined && c >= 0x30 && c <= 0x39)) return this.number();
        return this.fail(context);
    }
  }

  enter(): void {
    if (++this.depth > MAX_DEPTH) throw new SyntaxFailure({ message: MAX_DEPTH_MESSAGE, offset: this.pos + 1, kind: "depth" });
  }

  /** Consumes `open` and the space after it; false when `close` follows at once (an empty container). */
  open(close: number): boolean {
    this.enter();
    this.pos++;
    this.skipSpace();
    return !this.closes(close);
  }

  /** After a member: true after a `,` (another member follows), false after `close`. */
  more(close: number, context: string): boolean {
    this.skipSpace();
    if (this.src[this.pos] === 0x2c) {
      this.pos++;
      this.skipSpace();
      return true;
    }
    if (!this.closes(close)) this.fail(context);
    return false;
  }

  closes(close: number): boolean {
    if (this.src[this.pos] !== close) return false;
    this.pos++;
    this.depth--;
    return true;
  }

  object(): JsonNode {
    const start = this.pos;
    const skim = this.skimming > 0;
    const entries: Array<[string, JsonNode]> = skim ? NO_ENTRIES : [];
    if (this.open(0x7d)) {
      do {
        if (this.src[this.pos] !== 0x22) this.fail("looking for beginning of object key string");
        const key = this.string();
        this.skipSpace();
        if (this.src[this.pos] !== 0x3a) this.fail("after object key");
        this.pos++;
        this.skipSpace();
        if (skim) {
          this.value("looking for beginning of value");
          continue;
        }
        const raw = this.rawKeys !== undefined && this.rawKeys.has(key.toLowerCase());
        if (raw) this.skimming++;
        entries.push([key, this.value("looking for beginning of value")]);
        if (raw) this.skimming--;
      } while (this.more(0x7d, "after object key:value pair"));
    }
    return { t: "object", entries, start, end: this.pos };
  }

  array(): JsonNode {
    const start = this.pos;
    const skim = this.skimming > 0;
    const items: JsonNode[] = skim ? NO_ITEMS : [];
    if (this.open(0x5d)) {
      do {
        const item = this.value("looking for beginning of value");
        if (!skim) items.push(item);
      } while (this.more(0x5d, "after array element"));
    }
    return { t: "array", items, start, end: this.pos };
  }

  literal(word: string): void {
    for (let i = 0; i < word.length; i++) {
      if (this.src[this.pos] !== word.charCodeAt(i)) this.fail(`in literal ${word} (expecting ${quoteChar(word.charCodeAt(i))})`);
      this.pos++;
    }
  }

  digits(context: string, atLeastOne: boolean): void {
    const c = this.src[this.pos];
    if (atLeastOne && (c === undefined || c < 0x30 || c > 0x39)) this.fail(context);
    while (this.pos < this.src.length) {
      const d = this.src[this.pos] as number;
      if (d < 0x30 || d > 0x39) break;
      this.pos++;
    }
  }

  number(): JsonNode {
    const start = this.pos;
    if (this.src[this.pos] === 0x2d) {
      this.pos++;
      const c = this.src[this.pos];
      if (c === undefined || c < 0x30 || c > 0x39) this.fail("in numeric literal");
    }
    if (this.src[this.pos] === 0x30) this.pos++;
    else this.digits("in numeric literal", true);
    if (this.src[this.pos] === 0x2e) {
      this.pos++;
      this.digits("after decimal point in numeric literal", true);
    }
    const e = this.src[this.pos];
    if (e === 0x65 || e === 0x45) {
      this.pos++;
      const s = this.src[this.pos];
      if (s === 0x2b || s === 0x2d) this.pos++;
      this.digits("in exponent of numeric literal", true);
    }
    return { t: "number", raw: this.skimming > 0 ? "" : utf8.decode(this.src.subarray(start, this.pos)), start, end: this.pos };
  }

  string(): string {
    this.pos++; // opening quote
    let out = "";
    let runStart = this.pos;
    // Only a \u escape can produce a lone surrogate (the UTF-8 decoder never does).
    let surrogates = false;
    for (;;) {
      if (this.pos >= this.src.length) this.fail("in string literal");
      const c = this.src[this.pos] as number;
      if (c === 0x22) {
        if (this.skimming > 0) {
          this.pos++;
          return "";
        }
        out += utf8.decode(this.src.subarray(runStart, this.pos));
        this.pos++;
        return surrogates ? wellFormed(out) : out;
      }
      if (c < 0x20) this.fail("in string literal");
      if (c !== 0x5c) {
        this.pos++;
        continue;
      }
      if (this.skimming === 0) out += utf8.decode(this.src.subarray(runStart, this.pos));
      this.pos++;
      const esc = this.src[this.pos];
      switch (esc) {
        case 0x22:
          out += '"';
          break;
        case 0x5c:
          out += "\\";
          break;
        case 0x2f:
          out += "/";
          break;
        case 0x62:
          out += "\b";
          break;
        case 0x66:
          out += "\f";
          break;
        case 0x6e:
          out += "\n";
          break;
        case 0x72:
          out += "\r";
          break;
        case 0x74:
          out += "\t";
          break;
        case 0x75: {
          let code = 0;
          for (let i = 0; i < 4; i++) {
            this.pos++;
            const h = this.src[this.pos];
            if (h === undefined || !isHex(h)) this.fail("in \\u hexadecimal character escape");
            code = code * 16 + hexValue(h);
          }
          if (code >= 0xd800 && code <= 0xdfff) surrogates = true;
          out += String.fromCharCode(code);
          break;
        }
        default:
          this.fail("in string escape code");
      }
      this.pos++;
      runStart = this.pos;
    }
  }
}

/**
 * Replaces lone surrogates (invalid UTF-8 to Go) with U+FFFD, as Go's decoder does: a high
 * surrogate escape directly followed by a low one is a pair, any other surrogate is U+FFFD.
 */
function wellFormed(s: string): string {
  let out: string | undefined;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const next = s.charCodeAt(i + 1);
    if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++;
      continue;
    }
    out = (out ?? s).slice(0, i) + "\ufffd" + (out ?? s).slice(i + 1);
  }
  return out ?? s;
}

/**
 * Parses a whole JSON document the way Go's json.Unmarshal validates it first. The parser recurses
 * once per level of nesting, so input nested deeper than the stack allows fails like Go's limit.
 *
 * `rawKeys` (lower case, matched as goField matches) names members the caller only keeps as raw
 * text (json.RawMessage): their values are validated exactly as the rest are, but come back with
 * their kind and byte span only — empty entries, items, strings and number text.
 */
export function parseGoJSON(src: Uint8Array, rawKeys?: ReadonlySet<string>): JsonParseResult {
  const p = new Parser(src, rawKeys);
  try {
    return { ok: true, node: p.document() };
  } catch (e) {
    if (e instanceof SyntaxFailure) return { ok: false, error: e.error };
    if (e instanceof RangeError) return { ok: false, error: { message: MAX_DEPTH_MESSAGE, offset: p.pos + 1, kind: "depth" } };
    throw e;
  }
}

/** The kind name Go puts in UnmarshalTypeError.Value for a JSON value. */
export function goKindName(n: JsonNode): string {
  switch (n.t) {
    case "object":
      return "object";
    case "array":
      return "array";
    case "string":
      return "string";
    case "number":
      return "number";
    case "bool":
      return "bool";
    case "null":
      return "null";
  }
}

/**
 * The member Go's decoder would store into a struct field named `name`: keys match exactly or
 * case-insensitively, and a later duplicate overwrites an earlier one.
 */
export function goField(obj: JsonNode & { t: "object" }, name: string): JsonNode | undefined {
  let found: JsonNode | undefined;
  const lower = name.toLowerCase();
  for (const [k, v] of obj.entries) {
    if (k === name || k.toLowerCase() === lower) found = v;
  }
  return found;
}

const LT = 0x3c;
const GT = 0x3e;
const AMP = 0x26;

/**
 * Go's json.Compact with HTML escaping (what json.Marshal does to a json.RawMessage): drops
 * insignificant whitespace, keeps string escapes as written, escapes <, >, &, U+2028 and U+2029.
 */
export function compactGo(src: Uint8Array, start = 0, end = src.length): string {
  // Output is never longer than the input except for the escapes (6 bytes for 1 or 3): the
  // buffer grows only then.
  let out = new Uint8Array(end - start + 16);
  let n = 0;
  const room = (k: number): void => {
    if (n + k <= out.length) return;
    const bigger = new Uint8Array(Math.max(out.length * 2, n + k));
    bigger.set(out.subarray(0, n));
    out = bigger;
  };
  const pushAscii = (s: string): void => {
    room(s.length);
    for (let i = 0; i < s.length; i++) out[n++] = s.charCodeAt(i);
  };
  let inString = false;
  for (let i = start; i < end; i++) {
    const c = src[i] as number;
    if (inString) {
      if (c === 0x5c) {
        room(2);
        out[n++] = c;
        out[n++] = src[i + 1] as number;
        i++;
        continue;
      }
      if (c === 0x22) inString = false;
      if (c === LT) pushAscii("\\u003c");
      else if (c === GT) pushAscii("\\u003e");
      else if (c === AMP) pushAscii("\\u0026");
      else if (c === 0xe2 && src[i + 1] === 0x80 && (src[i + 2] === 0xa8 || src[i + 2] === 0xa9)) {
        pushAscii(src[i + 2] === 0xa8 ? "\\u2028" : "\\u2029");
        i += 2;
      } else {
        room(1);
        out[n++] = c;
      }
      continue;
    }
    if (isSpace(c)) continue;
    if (c === 0x22) inString = true;
    room(1);
    out[n++] = c;
  }
  return utf8.decode(out.subarray(0, n));
}

/** Go's json.Indent over compact JSON text: newline + indent after `{`, `[` and `,`; `": "`. */
export function indentGo(compact: string, indent = "  "): string {
  const parts: string[] = [];
  let depth = 0;
  let needIndent = false;
  let inString = false;
  let runStart = 0;
  const flush = (i: number): void => {
    if (i > runStart) parts.push(compact.slice(runStart, i));
  };
  const newline = (d: number): void => {
    parts.push("\n" + indent.repeat(d));
  };
  for (let i = 0; i < compact.length; i++) {
    const c = compact.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (needIndent && c !== 0x7d && c !== 0x5d) {
      flush(i);
      runStart = i;
      needIndent = false;
      depth++;
      newline(depth);
    }
    switch (c) {
      case 0x22:
        inString = true;
        break;
      case 0x7b:
      case 0x5b:
        needIndent = true;
        break;
      case 0x2c:
        flush(i + 1);
        runStart = i + 1;
        newline(depth);
        break;
      case 0x3a:
        flush(i + 1);
        runStart = i + 1;
        parts.push(" ");
        break;
      case 0x7d:
      case 0x5d:
        if (needIndent) needIndent = false;
        else {
          flush(i);
          runStart = i;
          depth--;
          newline(depth);
        }
        break;
      default:
        break;
    }
  }
  flush(compact.length);
  return parts.join("");
}
