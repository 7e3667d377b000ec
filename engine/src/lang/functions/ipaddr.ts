// IP addresses and networks the way Go's `net` package models them, for the cidr functions.
// OpenTofu's cidr functions run on Go's net.IP / net.IPNet (through its own `ipaddr` parser and the
// go-cidr library), and several of their answers — including odd ones users can observe, such as
// `cidrsubnet("10.0.0.0/8", -9, 0)` giving "<nil>" — follow from how those types behave: an
// address is a byte slice of length 4, 16 or 0/nil, IPv4 addresses are often held in 16 bytes
// ("::ffff:a.b.c.d"), masks are byte slices too, and printing picks a form from the lengths.
// This module reproduces that model on Uint8Arrays so the functions can be written step by step
// like the originals. `null` stands for Go's nil slice.

/** An address: 4 or 16 bytes, an empty slice, or nil. */
export type IP = Uint8Array | null;
/** A mask: like an address, as Go's IPMask. */
export type IPMask = Uint8Array | null;

export interface IPNet {
  readonly ip: IP;
  readonly mask: IPMask;
}

export const IPV4_LEN = 4;
export const IPV6_LEN = 16;

const V4_IN_V6_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/** Go's net.IPv4: the 16-byte form of an IPv4 address. */
export function ipv4(a: number, b: number, c: number, d: number): Uint8Array {
  return Uint8Array.from([...V4_IN_V6_PREFIX, a, b, c, d]);
}

export const IPV4_ZERO = ipv4(0, 0, 0, 0);
export const IPV6_ZERO = new Uint8Array(IPV6_LEN);

function len(b: Uint8Array | null): number {
  return b === null ? 0 : b.length;
}

function bytesEqual(a: Uint8Array, b: Uint8Array | readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function hasV4Prefix(ip: Uint8Array): boolean {
  return bytesEqual(ip.subarray(0, 12), V4_IN_V6_PREFIX);
}

// ---------------------------------------------------------------------------------------------
// Parsing (OpenTofu's ipaddr package: Go's parser from before Go 1.17, which reads IPv4 parts
// with leading zeros as decimal — "010.1.0.0" is 10.1.0.0 — instead of rejecting them).

// Go's parsers give up once a number reaches this, which also bounds the loops below.
const BIG = 0xffffff;

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** Decimal digits at the start of `s`: [value, characters used, ok] (Go's dtoi). */
function dtoi(s: string): [number, number, boolean] {
  let n = 0;
  let i = 0;
  for (; i < s.length && isDigit(s.charCodeAt(i)); i++) {
    n = n * 10 + (s.charCodeAt(i) - 0x30);
    if (n >= BIG) return [BIG, i, false];
  }
  if (i === 0) return [0, 0, false];
  return [n, i, true];
}

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** Hex digits at the start of `s`: [value, characters used, ok] (Go's xtoi). */
function xtoi(s: string): [number, number, boolean] {
  let n = 0;
  let i = 0;
  for (; i < s.length; i++) {
    const d = hexDigit(s.charCodeAt(i));
    if (d < 0) break;
    n = n * 16 + d;
    if (n >= BIG) return [0, i, false];
  }
  if (i === 0) return [0, 0, false];
  return [n, i, true];
}

/** A dotted-decimal IPv4 address in its 16-byte form, or null. */
export function parseIPv4(str: string): IP {
  let s = str;
  const p = [0, 0, 0, 0];
  for (let i = 0; i < IPV4_LEN; i++) {
    if (s.length === 0) return null;
    if (i > 0) {
      if (s[0] !== ".") return null;
      s = s.slice(1);
    }
    const [n, c, ok] = dtoi(s);
    if (!ok || n > 0xff) return null;
    s = s.slice(c);
    p[i] = n;
  }
  if (s.length !== 0) return null;
  return ipv4(p[0] as number, p[1] as number, p[2] as number, p[3] as number);
}

/** An IPv6 address (RFC 4291/5952 text, with an optional trailing IPv4 part), or null. */
export function parseIPv6(str: string): IP {
  let s = str;
  const ip = new Uint8Array(IPV6_LEN);
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ":" && s[1] === ":") {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return ip;
  }
  let i = 0;
  while (i < IPV6_LEN) {
    const [n, c, ok] = xtoi(s);
    if (!ok || n > 0xffff) return null;
    if (c < s.length && s[c] === ".") {
      // A trailing IPv4 address fills the last four bytes.
      if (ellipsis < 0 && i !== IPV6_LEN - IPV4_LEN) return null;
      if (i + IPV4_LEN > IPV6_LEN) return null;
      const ip4 = parseIPv4(s);
      if (ip4 === null) return null;
      ip.set(ip4.subarray(12), i);
      s = "";
      i += IPV4_LEN;
      break;
    }
    ip[i] = n >> 8;
    ip[i + 1] = n & 0xff;
    i += 2;
    s = s.slice(c);
    if (s.length === 0) break;
    if (s[0] !== ":" || s.length === 1) return null;
    s = s.slice(1);
    if (s[0] === ":") {
      if (ellipsis >= 0) return null;
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) return null;
  if (i < IPV6_LEN) {
    if (ellipsis < 0) return null;
    const n = IPV6_LEN - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j] as number;
    for (let j = ellipsis + n - 1; j >= ellipsis; j--) ip[j] = 0;
  } else if (ellipsis >= 0) {
    // "::" must stand for at least one group of zeros.
    return null;
  }
  return ip;
}

/** Go's ParseIP: IPv4, IPv6 or IPv4-mapped IPv6 text, decided by the first '.' or ':'. */
export function parseIP(s: string): IP {
  for (const ch of s) {
    if (ch === ".") return parseIPv4(s);
    if (ch === ":") return parseIPv6(s);
  }
  return null;
}

export type ParseCIDRResult = { ok: true; ip: Uint8Array; net: IPNet } | { ok: false; error: string };

/**
 * Go's ParseCIDR: the address and its network. IPv4 networks come back with 4-byte address and
 * mask; IPv6 ones (including "::ffff:a.b.c.d/n") with 16 bytes of each.
 */
export function parseCIDR(s: string): ParseCIDRResult {
  const fail: ParseCIDRResult = { ok: false, error: `invalid CIDR address: ${s}` };
  const slash = s.indexOf("/");
  if (slash < 0) return fail;
  const addr = s.slice(0, slash);
  const maskText = s.slice(slash + 1);
  let ipLen = IPV4_LEN;
  let ip = parseIPv4(addr);
  if (ip === null) {
    ipLen = IPV6_LEN;
    ip = parseIPv6(addr);
  }
  const [n, used, ok] = dtoi(maskText);
  if (ip === null || !ok || used !== maskText.length || n < 0 || n > 8 * ipLen) return fail;
  const m = cidrMask(n, 8 * ipLen) as Uint8Array;
  return { ok: true, ip, net: { ip: ipMask(ip, m), mask: m } };
}

// ---------------------------------------------------------------------------------------------
// Operations (Go's net.IP / IPMask / IPNet methods)

/** Go's CIDRMask: `ones` leading one bits out of `bits` (32 or 128); nil when impossible. */
export function cidrMask(ones: number, bits: number): IPMask {
  if (bits !== 8 * IPV4_LEN && bits !== 8 * IPV6_LEN) return null;
  if (ones < 0 || ones > bits) return null;
  const m = new Uint8Array(bits / 8);
  let n = ones;
  for (let i = 0; i < m.length; i++) {
    if (n >= 8) {
      m[i] = 0xff;
      n -= 8;
      continue;
    }
    m[i] = ~(0xff >> n) & 0xff;
    n = 0;
  }
  return m;
}

/** Go's IP.To4: the 4-byte form of an IPv4 (or IPv4-mapped) address, else null. */
export function to4(ip: IP): IP {
  if (ip === null) return null;
  if (ip.length === IPV4_LEN) return ip;
  if (ip.length === IPV6_LEN && hasV4Prefix(ip)) return ip.subarray(12);
  return null;
}

/** Go's IP.Mask: the address with the mask applied; nil when their lengths do not fit. */
export function ipMask(ipIn: IP, maskIn: IPMask): IP {
  let ip = ipIn;
  let mask = maskIn;
  if (mask !== null && ip !== null && mask.length === IPV6_LEN && ip.length === IPV4_LEN && mask.subarray(0, 12).every((b) => b === 0xff)) {
    mask = mask.subarray(12);
  }
  if (mask !== null && ip !== null && mask.length === IPV4_LEN && ip.length === IPV6_LEN && hasV4Prefix(ip)) {
    ip = ip.subarray(12);
  }
  const n = len(ip);
  if (n !== len(mask)) return null;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = ((ip as Uint8Array)[i] as number) & ((mask as Uint8Array)[i] as number);
  return out;
}

/** Go's IP.Equal: IPv4 addresses equal their 16-byte forms. */
export function ipEqual(a: IP, b: IP): boolean {
  const x = a ?? new Uint8Array(0);
  const y = b ?? new Uint8Array(0);
  if (x.length === y.length) return bytesEqual(x, y);
  if (x.length === IPV4_LEN && y.length === IPV6_LEN) return hasV4Prefix(y) && bytesEqual(x, y.subarray(12));
  if (x.length === IPV6_LEN && y.length === IPV4_LEN) return hasV4Prefix(x) && bytesEqual(x.subarray(12), y);
  return false;
}

/** Leading one bits of a mask, or -1 when ones and zeros are mixed (Go's simpleMaskLength). */
function simpleMaskLength(mask: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < mask.length; i++) {
    let v = mask[i] as number;
    if (v === 0xff) {
      n += 8;
      continue;
    }
    while ((v & 0x80) !== 0) {
      n++;
      v = (v << 1) & 0xff;
    }
    if (v !== 0) return -1;
    for (i++; i < mask.length; i++) if (mask[i] !== 0) return -1;
    break;
  }
  return n;
}

/** Go's IPMask.Size: [ones, bits], or [0, 0] for a non-canonical or nil mask. */
export function maskSize(mask: IPMask): [number, number] {
  if (mask === null) return [0, 0];
  const ones = simpleMaskLength(mask);
  return ones === -1 ? [0, 0] : [ones, mask.length * 8];
}

/** Go's networkNumberAndMask: the network's address and mask at matching lengths, or nils. */
function networkNumberAndMask(n: IPNet): [Uint8Array, Uint8Array] | undefined {
  let ip = to4(n.ip);
  if (ip === null) {
    ip = n.ip;
    if (len(ip) !== IPV6_LEN) return undefined;
  }
  let m = n.mask;
  switch (len(m)) {
    case IPV4_LEN:
      if ((ip as Uint8Array).length !== IPV4_LEN) return undefined;
      break;
    case IPV6_LEN:
      if ((ip as Uint8Array).length === IPV4_LEN) m = (m as Uint8Array).subarray(12);
      break;
    default:
      return undefined;
  }
  return [ip as Uint8Array, m as Uint8Array];
}

/** Go's IPNet.Contains. */
export function netContains(n: IPNet, ipIn: IP): boolean {
  const nm = networkNumberAndMask(n);
  const nn = nm?.[0] ?? new Uint8Array(0);
  const m = nm?.[1] ?? new Uint8Array(0);
  const ip = to4(ipIn) ?? ipIn ?? new Uint8Array(0);
  if (ip.length !== nn.length) return false;
  for (let i = 0; i < ip.length; i++) {
    if (((nn[i] as number) & (m[i] as number)) !== ((ip[i] as number) & (m[i] as number))) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Printing

function hexString(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/** Go's IP.String: dotted decimal for IPv4 (and IPv4-mapped), RFC 5952 text for IPv6. */
export function ipString(ip: IP): string {
  if (ip === null || ip.length === 0) return "<nil>";
  if (ip.length !== IPV4_LEN && ip.length !== IPV6_LEN) return "?" + hexString(ip);
  const p4 = to4(ip);
  if (p4 !== null) return Array.from(p4).join(".");
  const groups: number[] = [];
  for (let i = 0; i < IPV6_LEN; i += 2) groups.push(((ip[i] as number) << 8) | (ip[i + 1] as number));
  // The first longest run of two or more zero groups becomes "::".
  let zeroStart = -1;
  let zeroEnd = -1;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i >= 2 && j - i > zeroEnd - zeroStart) {
      zeroStart = i;
      zeroEnd = j;
    }
  }
  let out = "";
  for (let i = 0; i < 8; i++) {
    if (i === zeroStart) {
      out += "::";
      i = zeroEnd - 1;
      continue;
    }
    if (out !== "" && !out.endsWith(":")) out += ":";
    out += (groups[i] as number).toString(16);
  }
  return out;
}

/** Go's IPNet.String: "address/length", "<nil>" when address and mask do not fit together. */
export function ipNetString(n: IPNet): string {
  const nm = networkNumberAndMask(n);
  if (!nm) return "<nil>";
  const [nn, m] = nm;
  const l = simpleMaskLength(m);
  if (l === -1) return `${ipString(nn)}/${hexString(m)}`;
  return `${ipString(nn)}/${l}`;
}

// ---------------------------------------------------------------------------------------------
// Addresses as integers (go-cidr's ipToInt / intToIP)

/** The address as an unsigned integer and its width in bits (4-byte: 32, 16-byte: 128). */
export function ipToInt(ip: Uint8Array): [bigint, number] {
  let v = 0n;
  for (const b of ip) v = (v << 8n) | BigInt(b);
  return [v, ip.length * 8];
}

/** Thrown where Go's code would index out of range; the function layer reports it as cty does. */
export class GoPanic extends Error {}

/**
 * go-cidr's intToIP: the magnitude's big-endian bytes, right-aligned in `bits / 8` bytes. A
 * magnitude that does not fit makes the original index out of range (at -1).
 */
export function intToIP(v: bigint, bits: number): Uint8Array {
  let mag = v < 0n ? -v : v;
  const bytes: number[] = [];
  while (mag > 0n) {
    bytes.unshift(Number(mag & 0xffn));
    mag >>= 8n;
  }
  const out = new Uint8Array(bits / 8);
  if (bytes.length > out.length) throw new GoPanic("runtime error: index out of range [-1]");
  out.set(bytes, out.length - bytes.length);
  return out;
}
