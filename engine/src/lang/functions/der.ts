// A small ASN.1 DER reader for the key structures `rsadecrypt` reads, failing the way Go's
// encoding/asn1 fails: OpenTofu shows those errors to users (rewording only their prefix), so the
// reader follows the same steps — tag/length parsing, optional fields, "tags don't match" with
// Go's %+v rendering — and produces the same messages.

export type DerErrorKind = "syntax" | "structural";

export class DerError extends Error {
  constructor(
    readonly kind: DerErrorKind,
    readonly msg: string,
  ) {
    super(`asn1: ${kind === "syntax" ? "syntax error" : "structure error"}: ${msg}`);
  }
}

/** Field types, named as Go's reflect.Type.Name() reports them in error texts. */
export type DerType =
  | { readonly kind: "int" }
  | { readonly kind: "bigint" }
  | { readonly kind: "oid" }
  | { readonly kind: "octets" }
  | { readonly kind: "bitstring" }
  | { readonly kind: "any" }
  | { readonly kind: "struct"; readonly name: string; readonly fields: readonly DerField[] }
  | { readonly kind: "seqof"; readonly element: DerType };

export interface DerField {
  readonly name: string;
  readonly type: DerType;
  readonly optional?: boolean;
  readonly omitEmpty?: boolean;
  /** An explicit context-specific tag number. */
  readonly explicitTag?: number;
}

export type DerValue = bigint | Uint8Array | readonly number[] | DerStruct | readonly DerValue[] | undefined;
export interface DerStruct {
  readonly [field: string]: DerValue;
}

const TAG_INTEGER = 2;
const TAG_BIT_STRING = 3;
const TAG_OCTET_STRING = 4;
const TAG_OID = 6;
const TAG_SEQUENCE = 16;
const CLASS_UNIVERSAL = 0;
const CLASS_CONTEXT = 2;

interface TagAndLength {
  readonly cls: number;
  readonly tag: number;
  readonly length: number;
  readonly compound: boolean;
}

function goTypeName(t: DerType): string {
  switch (t.kind) {
    case "int":
      return "int";
    case "oid":
      return "ObjectIdentifier";
    case "bitstring":
      return "BitString";
    case "any":
      return "RawValue";
    case "struct":
      return t.name;
    default:
      // *big.Int, []byte and slices have no type name.
      return "";
  }
}

function universalType(t: DerType): { matchAny: boolean; tag: number; compound: boolean } {
  switch (t.kind) {
    case "int":
    case "bigint":
      return { matchAny: false, tag: TAG_INTEGER, compound: false };
    case "oid":
      return { matchAny: false, tag: TAG_OID, compound: false };
    case "octets":
      return { matchAny: false, tag: TAG_OCTET_STRING, compound: false };
    case "bitstring":
      return { matchAny: false, tag: TAG_BIT_STRING, compound: false };
    case "any":
      return { matchAny: true, tag: -1, compound: false };
    case "struct":
    case "seqof":
      return { matchAny: false, tag: TAG_SEQUENCE, compound: true };
  }
}

/** Go's %+v of asn1.fieldParameters for the parameters these structures use. */
function paramsText(f: DerField): string {
  const tag = f.explicitTag === undefined ? "<nil>" : `0x${f.explicitTag.toString(16)}`;
  return `{optional:${!!f.optional} explicit:${f.explicitTag !== undefined} application:false private:false defaultValue:<nil> tag:${tag} stringType:0 timeType:0 set:false omitEmpty:${!!f.omitEmpty}}`;
}

function tagText(t: TagAndLength): string {
  return `{class:${t.cls} tag:${t.tag} length:${t.length} isCompound:${t.compound}}`;
}

function parseBase128Int(b: Uint8Array, start: number): [number, number] {
  let offset = start;
  let v = 0;
  for (let shifted = 0; offset < b.length; shifted++) {
    if (shifted === 5) throw new DerError("structural", "base 128 integer too large");
    const c = b[offset] as number;
    if (shifted === 0 && c === 0x80) throw new DerError("syntax", "integer is not minimally encoded");
    v = v * 128 + (c & 0x7f);
    offset++;
    if ((c & 0x80) === 0) {
      if (v > 0x7fffffff) throw new DerError("structural", "base 128 integer too large");
      return [v, offset];
    }
  }
  throw new DerError("syntax", "truncated base 128 integer");
}

function parseTagAndLength(b: Uint8Array, start: number): [TagAndLength, number] {
  let offset = start;
  let c = b[offset++] as number;
  const cls = c >> 6;
  const compound = (c & 0x20) !== 0;
  let tag = c & 0x1f;
  if (tag === 0x1f) {
    [tag, offset] = parseBase128Int(b, offset);
    if (tag < 0x1f) throw new DerError("syntax", "non-minimal tag");
  }
  if (offset >= b.length) throw new DerError("syntax", "truncated tag or length");
  c = b[offset++] as number;
  let length: number;
  if ((c & 0x80) === 0) {
    length = c & 0x7f;
  } else {
    const numBytes = c & 0x7f;
    if (numBytes === 0) throw new DerError("syntax", "indefinite length found (not DER)");
    length = 0;
    for (let i = 0; i < numBytes; i++) {
      if (offset >= b.length) throw new DerError("syntax", "truncated tag or length");
      c = b[offset++] as number;
      if (length >= 1 << 23) throw new DerError("structural", "length too large");
      length = length * 256 + c;
      if (length === 0) throw new DerError("structural", "superfluous leading zeros in length");
    }
    if (length < 0x80) throw new DerError("structural", "non-minimal length");
  }
  return [{ cls, tag, length, compound }, offset];
}

function checkInteger(b: Uint8Array): void {
  if (b.length === 0) throw new DerError("structural", "empty integer");
  if (b.length === 1) return;
  const b0 = b[0] as number;
  const b1 = b[1] as number;
  if ((b0 === 0 && (b1 & 0x80) === 0) || (b0 === 0xff && (b1 & 0x80) === 0x80)) {
    throw new DerError("structural", "integer not minimally-encoded");
  }
}

function twosComplement(b: Uint8Array): bigint {
  let v = 0n;
  for (const x of b) v = (v << 8n) | BigInt(x);
  if (b.length > 0 && ((b[0] as number) & 0x80) !== 0) v -= 1n << BigInt(8 * b.length);
  return v;
}

function parseOID(b: Uint8Array): number[] {
  if (b.length === 0) throw new DerError("syntax", "zero length OBJECT IDENTIFIER");
  let [v, offset] = parseBase128Int(b, 0);
  const out = v < 80 ? [Math.floor(v / 40), v % 40] : [2, v - 80];
  while (offset < b.length) {
    [v, offset] = parseBase128Int(b, offset);
    out.push(v);
  }
  return out;
}

function parseBitString(b: Uint8Array): Uint8Array {
  if (b.length === 0) throw new DerError("syntax", "zero length BIT STRING");
  const pad = b[0] as number;
  if (pad > 7 || (b.length === 1 && pad > 0) || ((b[b.length - 1] as number) & ((1 << pad) - 1)) !== 0) {
    throw new DerError("syntax", "invalid padding bits in BIT STRING");
  }
  return b.subarray(1);
}

/** Contents of a known-tag element (after the tag check). */
function parseContents(type: DerType, inner: Uint8Array): DerValue {
  switch (type.kind) {
    case "int":
      checkInteger(inner);
      // Go's `int` is 64 bits here.
      if (inner.length > 8) throw new DerError("structural", "integer too large");
      return twosComplement(inner);
    case "bigint":
      checkInteger(inner);
      return twosComplement(inner);
    case "oid":
      return parseOID(inner);
    case "octets":
    case "any":
      return inner;
    case "bitstring":
      return parseBitString(inner);
    case "struct": {
      const out: Record<string, DerValue> = {};
      let offset = 0;
      for (const f of type.fields) {
        const [v, next] = parseField(f, inner, offset);
        out[f.name] = v;
        offset = next;
      }
      // Go accepts extra elements at the end of a SEQUENCE.
      return out;
    }
    case "seqof":
      return parseSequenceOf(type.element, inner);
  }
}

function parseSequenceOf(element: DerType, b: Uint8Array): DerValue[] {
  const u = universalType(element);
  let count = 0;
  for (let offset = 0; offset < b.length; ) {
    const [t, next] = parseTagAndLength(b, offset);
    if (!u.matchAny && (t.cls !== CLASS_UNIVERSAL || t.compound !== u.compound || t.tag !== u.tag)) {
      throw new DerError("structural", "sequence tag mismatch");
    }
    if (next + t.length > b.length) throw new DerError("syntax", "truncated sequence");
    offset = next + t.length;
    count++;
  }
  const out: DerValue[] = [];
  let offset = 0;
  for (let i = 0; i < count; i++) {
    const [v, next] = parseField({ name: "", type: element }, b, offset);
    out.push(v);
    offset = next;
  }
  return out;
}

/** Go's parseField: one element at `start`, or the field's absence when it is optional. */
function parseField(f: DerField, b: Uint8Array, start: number): [DerValue, number] {
  if (start === b.length) {
    if (!f.optional) throw new DerError("syntax", "sequence truncated");
    return [undefined, start];
  }
  let [t, offset] = parseTagAndLength(b, start);
  if (f.explicitTag !== undefined) {
    if (offset === b.length) throw new DerError("structural", "explicit tag has no child");
    if (t.cls === CLASS_CONTEXT && t.tag === f.explicitTag && (t.length === 0 || t.compound)) {
      if (t.length === 0) throw new DerError("structural", "zero length explicit tag was not an asn1.Flag");
      [t, offset] = parseTagAndLength(b, offset);
    } else {
      if (f.optional) return [undefined, start];
      throw new DerError("structural", "explicitly tagged member didn't match");
    }
  }
  const u = universalType(f.type);
  if ((!u.matchAny && (t.cls !== CLASS_UNIVERSAL || t.tag !== u.tag)) || (!u.matchAny && t.compound !== u.compound)) {
    if (f.optional) return [undefined, start];
    throw new DerError("structural", `tags don't match (${u.tag} vs ${tagText(t)}) ${paramsText(f)} ${goTypeName(f.type)} @${offset}`);
  }
  if (offset + t.length > b.length) throw new DerError("syntax", "data truncated");
  const inner = b.subarray(offset, offset + t.length);
  return [parseContents(f.type, inner), offset + t.length];
}

/** Go's asn1.Unmarshal into a value of `type`: the value and the bytes after it. */
export function unmarshal(type: DerType, der: Uint8Array): { value: DerValue; rest: Uint8Array } {
  const [value, offset] = parseField({ name: "", type }, der, 0);
  return { value, rest: der.subarray(offset) };
}

/** Whether `der` unmarshals into `type` without error. */
export function parses(type: DerType, der: Uint8Array): boolean {
  try {
    unmarshal(type, der);
    return true;
  } catch (e) {
    if (e instanceof DerError) return false;
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// The structures Go's x509 package reads private keys into.

const bigint: DerType = { kind: "bigint" };
const int: DerType = { kind: "int" };

export const PKCS1_PRIVATE_KEY: DerType = {
  kind: "struct",
  name: "pkcs1PrivateKey",
  fields: [
    { name: "version", type: int },
    { name: "n", type: bigint },
    { name: "e", type: int },
    { name: "d", type: bigint },
    { name: "p", type: bigint },
    { name: "q", type: bigint },
    { name: "dp", type: bigint, optional: true },
    { name: "dq", type: bigint, optional: true },
    { name: "qinv", type: bigint, optional: true },
    {
      name: "additionalPrimes",
      optional: true,
      omitEmpty: true,
      type: {
        kind: "seqof",
        element: {
          kind: "struct",
          name: "pkcs1AdditionalRSAPrivateKey",
          fields: [
            { name: "prime", type: bigint },
            { name: "exp", type: bigint },
            { name: "coeff", type: bigint },
          ],
        },
      },
    },
  ],
};

export const PKCS8_PRIVATE_KEY: DerType = {
  kind: "struct",
  name: "pkcs8",
  fields: [
    { name: "version", type: int },
    {
      name: "algo",
      type: {
        kind: "struct",
        name: "AlgorithmIdentifier",
        fields: [
          { name: "algorithm", type: { kind: "oid" } },
          { name: "parameters", type: { kind: "any" }, optional: true },
        ],
      },
    },
    { name: "privateKey", type: { kind: "octets" } },
  ],
};

export const EC_PRIVATE_KEY: DerType = {
  kind: "struct",
  name: "ecPrivateKey",
  fields: [
    { name: "version", type: int },
    { name: "privateKey", type: { kind: "octets" } },
    { name: "namedCurveOID", type: { kind: "oid" }, optional: true, explicitTag: 0 },
    { name: "publicKey", type: { kind: "bitstring" }, optional: true, explicitTag: 1 },
  ],
};
