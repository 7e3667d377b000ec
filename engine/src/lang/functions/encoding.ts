// Built-in functions: encoding. base64*, textencodebase64/textdecodebase64, urlencode/urldecode
// and base64gunzip follow OpenTofu's own functions; csvdecode, jsonencode and jsondecode follow
// go-cty's stdlib; yamlencode and yamldecode follow go-cty-yaml. Parameter flags, refinements and
// error texts are theirs.
import { Deflate, gunzipSync, gzipSync } from "fflate";
import {
  DynamicPseudoType,
  Func,
  NumberType,
  SENSITIVE,
  StringType,
  BoolType,
  argError,
  callError,
  decodeJSONImplied,
  formatPathError,
  goQuote,
  impliedTypeJSON,
  isWhollyKnown,
  listOf,
  listVal,
  listValEmpty,
  marshalJSON,
  objectOf,
  objectVal,
  refine,
  refineNonNull,
  staticReturnType,
  stringVal,
  unknownVal,
  unmark,
  withMarks,
  type FunctionError,
  type Marks,
  type Type,
  type Value,
} from "../../values/index.js";
import type { FunctionContext } from "./context.js";
import { base64Decode, base64Encode } from "./gobase64.js";
import { CSVParseError, CSVReader } from "./gocsv.js";
import { checkImpliedJSON } from "./gojson.js";
import { ianaEncoding } from "./iana.js";
import { yamlDecode } from "./yamldecode.js";
import { yamlEncode } from "./yamlemit.js";

const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
const utf8 = new TextEncoder();

function str(v: Value): string {
  return v.kind === "string" ? v.value : "";
}

/** OpenTofu's redactIfSensitive for strings: Go-quoted, or "(sensitive value)". */
function redact(s: string, marks: Marks): string {
  return marks.has(SENSITIVE) ? "(sensitive value)" : goQuote(s);
}

/** Bytes as a string when they are valid UTF-8. */
function decodeUTF8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Go's string(bytes): invalid UTF-8 sequences read as U+FFFD. */
function goString(bytes: Uint8Array): string {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
}

const stringParam = (name: string, allowMarked = false) => ({ name, type: StringType, allowMarked });

const base64decodeFunc = new Func({
  params: [stringParam("str", true)],
  type: staticReturnType(StringType),
  refineResult: refineNonNull,
  impl: (args) => {
    const [s, marks] = unmark(args[0] as Value);
    const dec = base64Decode(str(s));
    if (!dec.ok) return callError(`failed to decode base64 data ${redact(str(s), marks)}`);
    const text = decodeUTF8(dec.bytes);
    if (text === undefined) return callError("the result of decoding the provided string is not valid UTF-8");
    return ok(withMarks(stringVal(text), marks));
  },
});

const base64encodeFunc = new Func({
  params: [stringParam("str")],
  type: staticReturnType(StringType),
  refineResult: refineNonNull,
  impl: (args) => ok(stringVal(base64Encode(utf8.encode(str(args[0] as Value))))),
});

/**
 * gzip as Go's compress/gzip writes it after Write, Flush and Close: a header with no name or
 * time and OS "unknown"; the deflate data as non-final blocks; the empty stored block of the
 * sync flush; an empty final stored block; CRC-32 and size. fflate's level-6 compressor makes the
 * same choices as Go's for short inputs; long repetitive inputs may compress to different (equally
 * valid) bytes.
 */
function goGzip(data: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [Uint8Array.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff])];
  if (data.length > 0) {
    const d = new Deflate({ level: 6 }, (chunk) => parts.push(chunk));
    d.push(data, false);
    d.flush(true);
  } else {
    parts.push(Uint8Array.from([0x00, 0x00, 0x00, 0xff, 0xff]));
  }
  parts.push(Uint8Array.from([0x01, 0x00, 0x00, 0xff, 0xff]));
  const whole = gzipSync(data);
  parts.push(whole.subarray(whole.length - 8));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const base64gzipFunc = new Func({
  params: [stringParam("str")],
  type: staticReturnType(StringType),
  refineResult: refineNonNull,
  impl: (args) => ok(stringVal(base64Encode(goGzip(utf8.encode(str(args[0] as Value)))))),
});

const base64gunzipFunc = new Func({
  params: [stringParam("str", true)],
  type: staticReturnType(StringType),
  refineResult: refineNonNull,
  impl: (args) => {
    const [s, marks] = unmark(args[0] as Value);
    const dec = base64Decode(str(s));
    if (!dec.ok) return callError(`failed to decode base64 data ${redact(str(s), marks)}`);
    const b = dec.bytes;
    if (b.length < 10) return callError(b.length === 0 ? "failed to gunzip bytestream: EOF" : "failed to gunzip bytestream: unexpected EOF");
    if (b[0] !== 0x1f || b[1] !== 0x8b || b[2] !== 0x08) return callError("failed to gunzip bytestream: gzip: invalid header");
    let out: Uint8Array;
    try {
      out = gunzipSync(b);
    } catch {
      return callError("failed to read gunzip raw data: unexpected EOF");
    }
    return ok(withMarks(stringVal(goString(out)), marks));
  },
});

/** Go's url.QueryEscape. */
function queryEscape(s: string): string {
  let out = "";
  for (const b of utf8.encode(s)) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (c === " ") out += "+";
    else out += "%" + b.toString(16).toUpperCase().padStart(2, "0");
  }
  return out;
}

const isHex = (c: number | undefined) => c !== undefined && ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));

/** Go's url.QueryUnescape: the decoded bytes, or the text of its EscapeError. */
function queryUnescape(s: string): { ok: true; bytes: Uint8Array } | { ok: false; error: string } {
  const src = utf8.encode(s);
  const out: number[] = [];
  for (let i = 0; i < src.length; i++) {
    const c = src[i] as number;
    if (c === 0x25) {
      if (i + 2 >= src.length || !isHex(src[i + 1]) || !isHex(src[i + 2])) {
        const bad = goString(src.subarray(i, Math.min(i + 3, src.length)));
        return { ok: false, error: `invalid URL escape ${goQuote(bad)}` };
      }
      out.push(parseInt(String.fromCharCode(src[i + 1] as number, src[i + 2] as number), 16));
      i += 2;
    } else if (c === 0x2b) out.push(0x20);
    else out.push(c);
  }
  return { ok: true, bytes: Uint8Array.from(out) };
}

const urlencodeFunc = new Func({
  params: [stringParam("str")],
  type: staticReturnType(StringType),
  refineResult: refineNonNull,
  impl: (args) => ok(stringVal(queryEscape(str(args[0] as Value)))),
});

const urldecodeFunc = new Func({
  params: [stringParam("str")],
  type: staticReturnType(StringType),
  refineResult: refineNonNull,
  impl: (args) => {
    const r = queryUnescape(str(args[0] as Value));
    // Go's QueryUnescape returns "" with its error, and OpenTofu quotes that in the message.
    if (!r.ok) return callError(`failed to decode URL '': ${r.error}`);
    return ok(stringVal(goString(r.bytes)));
  },
});

const textencodebase64Func = new Func({
  params: [stringParam("string"), stringParam("encoding")],
  type: staticReturnType(StringType),
  refineResult: refineNonNull,
  impl: (args) => {
    const name = str(args[1] as Value);
    const enc = ianaEncoding(name);
    if (!enc) return argError(1, `${goQuote(name)} is not a supported IANA encoding name or alias in this OpenTofu version`);
    const bytes = enc.encode(str(args[0] as Value));
    if (!bytes) return argError(0, `the given string contains characters that cannot be represented in ${enc.name}`);
    return ok(stringVal(base64Encode(bytes)));
  },
});

const textdecodebase64Func = new Func({
  params: [stringParam("source"), stringParam("encoding")],
  type: staticReturnType(StringType),
  refineResult: refineNonNull,
  impl: (args) => {
    const name = str(args[1] as Value);
    const enc = ianaEncoding(name);
    if (!enc) return argError(1, `${goQuote(name)} is not a supported IANA encoding name or alias in this OpenTofu version`);
    const dec = base64Decode(str(args[0] as Value));
    if (!dec.ok) return argError(0, `the given value is has an invalid base64 symbol at offset ${dec.offset}`);
    const text = enc.decode(dec.bytes);
    if (text === undefined || text.includes("\uFFFD")) return argError(0, `the given string contains symbols that are not defined for ${enc.name}`);
    return ok(stringVal(text));
  },
});

// ---------------------------------------------------------------------------------------------
// CSV (cty stdlib csvdecode)

function csvError(e: unknown): { ok: false; error: FunctionError } {
  if (e instanceof CSVParseError) return callError(e.message);
  throw e;
}

const csvdecodeFunc = new Func({
  params: [stringParam("str")],
  type: (args) => {
    const s = args[0] as Value;
    if (s.kind !== "string") return ok(DynamicPseudoType);
    let headers: string[] | undefined;
    try {
      headers = new CSVReader(s.value).read();
    } catch (e) {
      return csvError(e);
    }
    if (!headers) return callError("missing header line");
    const atys = new Map<string, Type>();
    for (const h of headers) {
      if (atys.has(h)) return callError(`duplicate column name ${goQuote(h)}`);
      atys.set(h, StringType);
    }
    return ok(listOf(objectOf(atys)));
  },
  refineResult: refineNonNull,
  impl: (args, retType) => {
    const ety = retType.kind === "list" ? retType.element : DynamicPseudoType;
    const reader = new CSVReader(str(args[0] as Value));
    reader.fieldsPerRecord = ety.kind === "object" ? ety.attributes.size : 0;
    const rows: Value[] = [];
    try {
      const headers = reader.read() ?? [];
      for (let cols = reader.read(); cols; cols = reader.read()) {
        const vals = new Map<string, Value>();
        cols.forEach((c, i) => vals.set(headers[i] as string, stringVal(c)));
        rows.push(objectVal(vals));
      }
    } catch (e) {
      return csvError(e);
    }
    return ok(rows.length === 0 ? listValEmpty(ety) : listVal(rows));
  },
});

// ---------------------------------------------------------------------------------------------
// JSON (cty stdlib)

const jsonencodeFunc = new Func({
  params: [{ name: "val", type: DynamicPseudoType, allowUnknown: true, allowDynamicType: true, allowNull: true }],
  type: staticReturnType(StringType),
  refineResult: refineNonNull,
  impl: (args, retType) => {
    const val = args[0] as Value;
    if (!isWhollyKnown(val)) {
      // The first character of the JSON is known once the value is known not to be null.
      const notNull = val.kind !== "null" && (val.kind !== "unknown" || val.refinement.notNull);
      if (!notNull) return ok(unknownVal(retType));
      const t = val.type;
      const b = refine(unknownVal(retType));
      if (t.kind === "string") b.stringPrefixFull('"');
      else if (t.kind === "object" || t.kind === "map") b.stringPrefixFull("{");
      else if (t.kind === "tuple" || t.kind === "list" || t.kind === "set") b.stringPrefixFull("[");
      return ok(b.newValue());
    }
    if (val.kind === "null") return ok(stringVal("null"));
    const r = marshalJSON(val, val.type);
    // A cty.PathError's text is its message alone: HCL shows no path for jsonencode's errors.
    if (!r.ok) return callError(r.error.message);
    return ok(stringVal(r.value.trim()));
  },
});

const jsondecodeFunc = new Func({
  params: [stringParam("str")],
  type: (args) => {
    const s = args[0] as Value;
    if (s.kind !== "string") {
      // A known prefix may already tell the result type, or that the JSON is invalid.
      const prefix = s.kind === "unknown" ? (s.refinement.stringPrefix ?? "").trim() : "";
      const c = prefix[0];
      if (c === undefined || c === "{" || c === "[" || c === "n") return ok(DynamicPseudoType);
      if (c === '"') return ok(StringType);
      if (c === "t" || c === "f") return ok(BoolType);
      if ("-0123456789.".includes(c)) return ok(NumberType);
      const r = String.fromCodePoint(prefix.codePointAt(0) as number);
      return argError(0, `a JSON document cannot begin with the character ${goQuoteRune(r)}`);
    }
    // Go's syntax errors come first (json.ImpliedType); our decoder then sees only the value Go
    // read, since Go ignores whatever follows a top-level value from a `]` or `}` on.
    const syntax = checkImpliedJSON(s.value);
    if (!syntax.ok) return callError(syntax.error);
    const t = impliedTypeJSON(s.value.slice(0, syntax.end));
    if (!t.ok) return callError(formatPathError(t.error));
    return ok(t.value);
  },
  impl: (args) => {
    const src = str(args[0] as Value);
    const syntax = checkImpliedJSON(src);
    if (!syntax.ok) return callError(syntax.error);
    const r = decodeJSONImplied(src.slice(0, syntax.end));
    if (!r.ok) return callError(formatPathError(r.error));
    return ok(r.value);
  },
});

/** Go's %q for a rune: single-quoted. */
function goQuoteRune(r: string): string {
  const q = goQuote(r);
  return `'${q.slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

// ---------------------------------------------------------------------------------------------
// YAML (go-cty-yaml)

const yamldecodeFunc = new Func({
  params: [stringParam("src")],
  type: (args) => {
    const s = args[0] as Value;
    if (s.kind !== "string") return ok(DynamicPseudoType);
    const r = yamlDecode(s.value);
    return r.ok ? ok(r.value.type) : callError(r.error);
  },
  impl: (args, retType) => {
    if (retType.kind === "dynamic" && args[0]?.kind !== "string") return ok(unknownVal(DynamicPseudoType));
    const r = yamlDecode(str(args[0] as Value));
    return r.ok ? ok(r.value) : callError(r.error);
  },
});

const yamlencodeFunc = new Func({
  params: [{ name: "value", type: DynamicPseudoType, allowNull: true, allowDynamicType: true }],
  type: staticReturnType(StringType),
  impl: (args, retType) => {
    // go-cty-yaml's function answers unknown for a value with an unknown anywhere inside.
    if (!isWhollyKnown(args[0] as Value)) return ok(unknownVal(retType));
    const r = yamlEncode(args[0] as Value);
    return r.ok ? ok(stringVal(r.value)) : callError(r.error);
  },
});

export function encodingFunctions(_ctx: FunctionContext): Record<string, Func> {
  return {
    base64decode: base64decodeFunc,
    base64encode: base64encodeFunc,
    base64gunzip: base64gunzipFunc,
    base64gzip: base64gzipFunc,
    csvdecode: csvdecodeFunc,
    jsondecode: jsondecodeFunc,
    jsonencode: jsonencodeFunc,
    textdecodebase64: textdecodebase64Func,
    textencodebase64: textencodebase64Func,
    urldecode: urldecodeFunc,
    urlencode: urlencodeFunc,
    yamldecode: yamldecodeFunc,
    yamlencode: yamlencodeFunc,
  };
}
