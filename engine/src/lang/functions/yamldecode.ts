// yamldecode as go-cty-yaml does it: mappings become objects, sequences tuples, and scalars are
// resolved with go-cty-yaml's rules — quoted and block scalars are strings; plain ones may be
// null (~, null, empty), YAML 1.1 booleans (y, yes, on, …), YAML 1.2 integers (decimal, 0o, 0x),
// floats, infinities, or timestamps (returned as RFC 3339 strings). Merge keys (`<<`) copy a
// mapping's entries in order; anchors and aliases are followed. The YAML syntax itself is parsed
// by the `yaml` package; its syntax error messages differ from go-yaml's.
import { CST, isAlias, isMap, isScalar, isSeq, parseAllDocuments, type Node as YAMLNode } from "yaml";
import {
  BigFloat,
  DynamicPseudoType,
  False,
  StringType,
  True,
  convert,
  friendlyName,
  goQuote,
  nullVal,
  numberVal,
  objectVal,
  parseNumberVal,
  stringVal,
  tupleVal,
  type Value,
} from "../../values/index.js";

const TAG = "tag:yaml.org,2002:";
const STR = `${TAG}str`;
const BINARY = `${TAG}binary`;
const BOOL = `${TAG}bool`;
const INT = `${TAG}int`;
const FLOAT = `${TAG}float`;
const NULL = `${TAG}null`;
const TIMESTAMP = `${TAG}timestamp`;
const MAP = `${TAG}map`;
const SEQ = `${TAG}seq`;

const RESOLVE = new Map<string, Value>();
for (const s of ["y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"]) RESOLVE.set(s, True);
for (const s of ["n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"]) RESOLVE.set(s, False);
for (const s of ["", "~", "null", "Null", "NULL"]) RESOLVE.set(s, nullVal(DynamicPseudoType));
for (const s of [".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"]) RESOLVE.set(s, numberVal(BigFloat.inf(false)));
for (const s of ["-.inf", "-.Inf", "-.INF"]) RESOLVE.set(s, numberVal(BigFloat.inf(true)));

class DecodeError extends Error {}

const DECIMAL = /^[-+]?[0-9]+$/;
const OCTAL = /^0o[0-7]+$/;
const HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_RE = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

function parseInteger(src: string): Value | undefined {
  if (DECIMAL.test(src) || FLOAT_RE.test(src)) return parseNumberVal(src);
  if (OCTAL.test(src)) return numberVal(BigFloat.fromBigInt(BigInt("0o" + src.slice(2))));
  if (HEX.test(src)) return numberVal(BigFloat.fromBigInt(BigInt(src)));
  return undefined;
}

/** Go's time.Parse with go-cty-yaml's layouts, formatted as RFC 3339; undefined if none fits. */
function parseTimestamp(s: string): string | undefined {
  if (!/^[0-9]{4}-/.test(s)) return undefined;
  const m =
    /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:([Tt ])([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?)?$/.exec(s);
  if (!m) return undefined;
  const [, y, mo, d, sep, h, mi, se, , zone] = m;
  if (sep !== undefined && sep !== " " && zone === undefined) return undefined;
  if (sep === " " && zone !== undefined) return undefined;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
  const pad = (n: number | string) => String(n).padStart(2, "0");
  const date = `${y}-${pad(month)}-${pad(day)}`;
  if (sep === undefined) return `${date}T00:00:00Z`;
  if (Number(h) > 23 || Number(mi) > 59 || Number(se) > 59) return undefined;
  const z = zone === undefined || zone === "Z" || zone === "+00:00" ? "Z" : zone === "-00:00" ? "Z" : zone;
  return `${date}T${pad(h as string)}:${pad(mi as string)}:${pad(se as string)}${z}`;
}

const MERGE = Symbol("merge");

function resolveScalar(tag: string, src: string, quoted: boolean): Value | typeof MERGE {
  const known = ["", STR, BOOL, INT, FLOAT, NULL, TIMESTAMP, BINARY];
  if (!known.includes(tag)) throw new DecodeError(`unsupported tag ${goQuote(tag.startsWith(TAG) ? "!!" + tag.slice(TAG.length) : tag)}`);
  const first = src[0];
  const hinted = src === "" || (first !== undefined && "+-0123456789yYnNtTfFoO~.".includes(first));
  if (hinted && tag !== STR && tag !== BINARY) {
    if (quoted) return stringVal(src);
    const item = RESOLVE.get(src);
    if (item) return item;
    if (tag === "" && [".nan", ".NaN", ".NAN"].includes(src)) throw new DecodeError("floating point NaN is not supported");
    if (first === "." || first === "+" || first === "-" || (first !== undefined && first >= "0" && first <= "9")) {
      if ((tag === "" || tag === TIMESTAMP) && first !== "." ) {
        const t = parseTimestamp(src);
        if (t !== undefined) return stringVal(t);
      }
      const n = parseInteger(src);
      if (n) return n;
    }
  } else if (quoted && tag === "") {
    return stringVal(src);
  }
  if (tag === "" && src === "<<") return MERGE;
  switch (tag) {
    case STR:
      return stringVal(src);
    case BINARY:
      if (!/^[A-Za-z0-9+/\r\n]*={0,2}[\r\n]*$/.test(src)) throw new DecodeError(`cannot parse ${goQuote(src)} as ${tag}: not valid base64`);
      return stringVal(src);
    case BOOL: {
      const item = RESOLVE.get(src);
      if (!item || item.kind !== "bool") throw new DecodeError(`cannot parse ${goQuote(src)} as ${tag}`);
      return item;
    }
    case INT:
    case FLOAT: {
      const n = parseInteger(src);
      if (!n) throw new DecodeError(`cannot parse ${goQuote(src)} as ${tag}`);
      return n;
    }
    case TIMESTAMP: {
      const t = parseTimestamp(src);
      if (t === undefined) throw new DecodeError(`cannot parse ${goQuote(src)} as ${tag}`);
      return stringVal(t);
    }
    case NULL:
      return nullVal(DynamicPseudoType);
    default:
      return stringVal(src);
  }
}

/**
 * The escapes go-yaml's scanner (YAML 1.1) takes in a double-quoted scalar. YAML 1.2, which the
 * library reads, also has `\/`; and go-yaml refuses `\u` escapes of UTF-16 surrogate halves.
 */
const GO_YAML_ESCAPES = new Set(["0", "a", "b", "t", "\t", "n", "v", "f", "r", "e", " ", '"', "'", "\\", "N", "_", "L", "P", "x", "u", "U", "\n", "\r"]);

function checkEscapes(source: string): void {
  for (let i = source.indexOf("\\"); i >= 0; i = source.indexOf("\\", i + 2)) {
    const c = source[i + 1] ?? "";
    if (!GO_YAML_ESCAPES.has(c)) throw new DecodeError("found unknown escape character");
    const width = c === "x" ? 2 : c === "u" ? 4 : c === "U" ? 8 : 0;
    if (width > 0) {
      const cp = parseInt(source.slice(i + 2, i + 2 + width), 16);
      if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) throw new DecodeError("found invalid Unicode character escape code");
      i += width;
    }
  }
}

class Decoder {
  private readonly pending = new Map<string, number>();
  private readonly anchors = new Map<string, Value>();

  constructor(private readonly src: string) {}

  private position(offset: number): string {
    const before = this.src.slice(0, offset);
    const line = before.split("\n").length;
    const column = offset - (before.lastIndexOf("\n") + 1) + 1;
    return `on line ${line}, column ${column}`;
  }

  private begin(anchor: string | undefined): void {
    if (anchor) this.pending.set(anchor, (this.pending.get(anchor) ?? 0) + 1);
  }

  private complete(anchor: string | undefined, v: Value): void {
    if (!anchor) return;
    const n = (this.pending.get(anchor) ?? 1) - 1;
    if (n === 0) this.pending.delete(anchor);
    else this.pending.set(anchor, n);
    this.anchors.set(anchor, v);
  }

  node(n: YAMLNode | null, scalarOK = true): Value | typeof MERGE {
    if (n === null) return nullVal(DynamicPseudoType);
    if (isAlias(n)) {
      const name = n.source;
      if (this.pending.has(name)) throw new DecodeError(`cannot refer to anchor ${goQuote(name)} from inside its own definition`);
      const v = this.anchors.get(name);
      if (!v) throw new DecodeError(`${this.position(n.range?.[0] ?? 0)}: reference to undefined anchor ${goQuote(name)}`);
      return v;
    }
    const anchor = n.anchor;
    this.begin(anchor);
    let v: Value;
    if (isScalar(n)) {
      if (n.type === "QUOTE_DOUBLE" && n.srcToken && "source" in n.srcToken) checkEscapes(String(n.srcToken.source));
      const quoted = n.type !== "PLAIN" && n.type !== undefined;
      // The library resolves some tags itself (a Uint8Array for !!binary, a Date for !!timestamp);
      // the scalar's own text (unquoted, or the block's lines) is what go-yaml resolves (binary
      // stays base64: cty has no bytes type).
      const resolvedByLibrary = n.value instanceof Uint8Array || n.value instanceof Date;
      let text = resolvedByLibrary ? (n.srcToken ? (CST.resolveAsScalar(n.srcToken)?.value ?? "") : "") : String(n.value ?? "");
      // A block scalar that runs to the end of an input with no final line break has none to
      // keep: go-yaml gives "x" for "a: |\n  x" where the library adds "\n".
      const end = n.range?.[1] ?? 0;
      if ((n.type === "BLOCK_LITERAL" || n.type === "BLOCK_FOLDED") && end >= this.src.length && !/[\r\n]$/.test(this.src) && text.endsWith("\n")) {
        text = text.slice(0, -1);
      }
      const r = resolveScalar(n.tag ?? "", text, quoted);
      if (r === MERGE) {
        if (scalarOK) return r;
        v = stringVal("<<");
      } else v = r;
    } else if (isSeq(n)) {
      if (n.tag && n.tag !== SEQ) throw new DecodeError(`${this.position(n.range?.[0] ?? 0)}: can't interpret sequence as ${n.tag}`);
      const items: Value[] = [];
      for (const item of n.items) items.push(this.value(item as YAMLNode | null));
      v = tupleVal(items);
    } else if (isMap(n)) {
      if (n.tag && n.tag !== MAP) throw new DecodeError(`${this.position(n.range?.[0] ?? 0)}: can't interpret mapping as ${n.tag}`);
      const attrs = new Map<string, Value>();
      for (const pair of n.items) {
        const keyNode = pair.key as YAMLNode | null;
        if (keyNode !== null && !isScalar(keyNode) && !isAlias(keyNode)) throw new DecodeError("only strings are allowed as mapping keys");
        const key = this.node(keyNode);
        const val = this.value(pair.value as YAMLNode | null);
        if (key === MERGE) {
          if (val.kind !== "object" && val.kind !== "map") throw new DecodeError(`cannot merge ${friendlyName(val.type)} into mapping`);
          for (const [k, e] of val.attrs) attrs.set(k, e);
          continue;
        }
        const ks = convert(key, StringType);
        if (!ks.ok) throw new DecodeError("only strings are allowed as mapping keys");
        if (ks.value.kind === "null") throw new DecodeError("mapping key cannot be null");
        if (ks.value.kind !== "string") throw new DecodeError("mapping key must be known");
        attrs.set(ks.value.value, val);
      }
      v = objectVal(attrs);
    } else {
      v = nullVal(DynamicPseudoType);
    }
    this.complete(anchor, v);
    return v;
  }

  value(n: YAMLNode | null): Value {
    const v = this.node(n, false);
    return v === MERGE ? stringVal("<<") : v;
  }
}

export type YAMLDecodeResult = { ok: true; value: Value } | { ok: false; error: string };

const PARSE_OPTIONS = { schema: "failsafe", uniqueKeys: false, merge: false, strict: false, prettyErrors: false, keepSourceTokens: true } as const;

/**
 * A stream whose first content is a document end marker: go-yaml's parser takes it as the start
 * of an implicit document, which then has no node (libyaml skips extra `...` only after a document).
 */
const LEADING_DOCUMENT_END = /^(?:[ \t]*(?:#[^\n]*)?\r?\n)*\.\.\.(?:[ \t\r\n]|$)/;

export function yamlDecode(input: string): YAMLDecodeResult {
  const end = LEADING_DOCUMENT_END.exec(input);
  if (end) {
    // cty-yaml gives go-yaml's mark (its line counted from 0) unless that is the first line.
    const line = end[0].slice(0, end[0].lastIndexOf("...")).split("\n").length - 1;
    return { ok: false, error: `${line > 0 ? `on line ${line}, column 1: ` : ""}did not find expected node content` };
  }
  let src = input;
  let docs = parseAllDocuments(src, PARSE_OPTIONS);
  // `\'` in a double-quoted scalar is a YAML 1.1 escape (go-yaml's) that YAML 1.2 dropped: read
  // as the quote it stands for. Positions after it in error messages move back by one.
  const quoteEscapes = (Array.isArray(docs) ? docs : [docs]).flatMap((d) => d.errors.filter((e) => e.code === "BAD_DQ_ESCAPE").map((e) => e.pos[0]));
  if (quoteEscapes.length > 0 && quoteEscapes.every((at) => src[at] === "\\" && src[at + 1] === "'")) {
    for (const at of [...quoteEscapes].sort((a, b) => b - a)) src = src.slice(0, at) + src.slice(at + 1);
    docs = parseAllDocuments(src, PARSE_OPTIONS);
  }
  const list = Array.isArray(docs) ? docs : [docs];
  const offsetPos = (offset: number) => {
    const before = src.slice(0, offset);
    return `on line ${before.split("\n").length}, column ${offset - (before.lastIndexOf("\n") + 1) + 1}`;
  };
  const first = list[0];
  // go-yaml reads only YAML 1.1 documents.
  if (first?.directives?.yaml.explicit && first.directives.yaml.version !== "1.1") return { ok: false, error: "found incompatible YAML document" };
  if (!first) return { ok: false, error: `on line 1, column 1: missing start of document` };
  for (const doc of list) {
    const err = doc.errors.find((e) => e.code !== "BAD_ALIAS");
    // An escape neither YAML version has: go-yaml's scanner says so without a position.
    if (err?.code === "BAD_DQ_ESCAPE") return { ok: false, error: "found unknown escape character" };
    if (err) return { ok: false, error: `${offsetPos(err.pos[0])}: ${err.message.split("\n")[0]?.replace(/\.$/, "")}` };
  }
  if (list.length > 1) {
    // cty-yaml reports where the second document starts, its line counted from 0 (as go-yaml's
    // mark holds it) and its column from 1.
    const at = (list[1] as (typeof list)[number]).range[0];
    const before = src.slice(0, at);
    const line = before.split("\n").length - 1;
    const column = at - (before.lastIndexOf("\n") + 1) + 1;
    return { ok: false, error: `on line ${line}, column ${column}: unexpected extra content after value` };
  }
  try {
    return { ok: true, value: new Decoder(src).value(first.contents as YAMLNode | null) };
  } catch (e) {
    if (e instanceof DecodeError) return { ok: false, error: e.message };
    throw e;
  }
}
