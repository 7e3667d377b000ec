// Built-in functions: cidr. cidrhost, cidrnetmask, cidrsubnet, cidrsubnets and the OpenTofu-only
// cidrcontains, following OpenTofu's lang/funcs/cidr.go on top of go-cidr's arithmetic. The
// arithmetic is reproduced step by step (see ./ipaddr.ts for the Go address model) because its
// quirks are observable: negative numbers, numbers beyond 64 bits, IPv4-mapped IPv6 networks and
// negative prefix extensions all give the answers OpenTofu gives, not "corrected" ones.
import {
  BoolType,
  Func,
  NumberType,
  StringType,
  argError,
  boolVal,
  callError,
  listOf,
  listVal,
  listValEmpty,
  refineNonNull,
  staticReturnType,
  stringVal,
  type FunctionResult,
  type Value,
} from "../../values/index.js";
import type { FunctionContext } from "./context.js";
import { goInt } from "./goint.js";
import {
  GoPanic,
  IPV4_LEN,
  IPV4_ZERO,
  IPV6_LEN,
  IPV6_ZERO,
  cidrMask,
  intToIP,
  ipEqual,
  ipMask,
  ipNetString,
  ipString,
  ipToInt,
  maskSize,
  netContains,
  parseCIDR,
  parseIP,
  to4,
  type IP,
  type IPNet,
} from "./ipaddr.js";

const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });

type Int = { ok: true; value: bigint } | { ok: false; error: string };

/** A number read into a Go *big.Int by gocty: whole numbers only. */
function bigInt(v: Value): Int {
  if (v.kind !== "number" || !v.value.isInt()) return { ok: false, error: "value must be a whole number" };
  return { ok: true, value: v.value.toBigInt() as bigint };
}

/** Go's int64 arithmetic wraps around. */
const int64 = (n: bigint): bigint => BigInt.asIntN(64, n);

/** big.Int.Uint64 (the low 64 bits of the magnitude) — what go-cidr compares against. */
const lowUint64 = (n: bigint): bigint => BigInt.asUintN(64, n < 0n ? -n : n);

/** A Go int that should be small (a prefix length) as a JS number; out-of-range ones stay invalid. */
function smallInt(n: bigint): number {
  return n < -(2n ** 31n) || n > 2n ** 31n ? Number.NaN : Number(n);
}

/** go-cidr's insertNumIntoIP: `num` shifted to sit just below `prefixLen` bits, ORed in. */
function insertNumIntoIP(ip: Uint8Array, num: bigint, prefixLen: bigint): Uint8Array {
  const [ipInt, totalBits] = ipToInt(ip);
  // uint(totalBits-prefixLen): a negative difference wraps to a huge shift in Go.
  const shift = BigInt.asUintN(64, BigInt(totalBits) - prefixLen);
  if (num !== 0n && shift > 1n << 24n) throw new GoPanic("runtime error: makeslice: len out of range");
  return intToIP(ipInt | (num << shift), totalBits);
}

/** go-cidr's checkIPv4: the 4-byte form of an IPv4 address. */
function checkIPv4(ip: IP): Uint8Array {
  return to4(ip) ?? ip ?? new Uint8Array(0);
}

function inc(ipIn: IP): Uint8Array {
  const ip = Uint8Array.from(checkIPv4(ipIn));
  for (let j = ip.length - 1; j >= 0; j--) {
    ip[j] = ((ip[j] as number) + 1) & 0xff;
    if ((ip[j] as number) > 0) break;
  }
  return ip;
}

function dec(ipIn: IP): Uint8Array {
  const ip = Uint8Array.from(checkIPv4(ipIn));
  for (let j = ip.length - 1; j >= 0; j--) {
    ip[j] = ((ip[j] as number) - 1) & 0xff;
    if ((ip[j] as number) < 255) break;
  }
  return ip;
}

/** go-cidr's AddressRange: the network's first address (as held) and its last. */
function addressRange(n: IPNet): [IP, Uint8Array] {
  const first = n.ip;
  const [prefixLen, bits] = maskSize(n.mask);
  if (prefixLen === bits) return [first, Uint8Array.from(first ?? [])];
  if (first === null || (first.length !== IPV4_LEN && first.length !== IPV6_LEN)) {
    throw new GoPanic(`Unsupported address length ${first === null ? 0 : first.length}`);
  }
  const [firstInt, width] = ipToInt(first);
  const hostLen = BigInt(width - prefixLen);
  return [first, intToIP(((1n << hostLen) - 1n) | firstInt, width)];
}

/** go-cidr's HostBig. */
function hostBig(base: IPNet, numIn: bigint): FunctionResult<Uint8Array> {
  let num = numIn;
  const [parentLen, addrLen] = maskSize(base.mask);
  const maxHostNum = (1n << BigInt(addrLen - parentLen)) - 1n;
  // int64(num.Uint64()): numbers of 2^63 and more pass the range check below by wrapping.
  let numUint64 = BigInt.asIntN(64, lowUint64(num));
  if (num < 0n) {
    numUint64 = -num - 1n;
    num = maxHostNum - numUint64;
  }
  if (numUint64 > maxHostNum) return callError(`prefix of ${parentLen} does not accommodate a host numbered ${num}`);
  // The width comes from the address family while the shift uses the held length, so an
  // IPv4-mapped IPv6 network puts the host number 96 bits too high, as OpenTofu does.
  const bitLength = to4(base.ip) !== null ? 32n : 128n;
  return ok(insertNumIntoIP(base.ip as Uint8Array, num, bitLength));
}

/** go-cidr's SubnetBig. */
function subnetBig(base: IPNet, newBits: bigint, num: bigint): FunctionResult<IPNet> {
  const [parentLen, addrLen] = maskSize(base.mask);
  const newPrefixLen = int64(BigInt(parentLen) + newBits);
  if (newPrefixLen > BigInt(addrLen)) return callError(`insufficient address space to extend prefix of ${parentLen} by ${newBits}`);
  // uint64(1<<uint64(newBits)) - 1: shifts of 64 or more (and negative newBits) give 0, so the
  // limit wraps to the largest uint64.
  const shiftBy = BigInt.asUintN(64, newBits);
  const maxNetNum = shiftBy >= 64n ? 2n ** 64n - 1n : (1n << shiftBy) - 1n;
  if (lowUint64(num) > maxNetNum) return callError(`prefix extension of ${newBits} does not accommodate a subnet numbered ${num}`);
  return ok({ ip: insertNumIntoIP(base.ip as Uint8Array, num, newPrefixLen), mask: cidrMask(smallInt(newPrefixLen), addrLen) });
}

/** go-cidr's PreviousSubnet (without its rollover flag, which OpenTofu ignores). */
function previousSubnet(n: IPNet, prefixLen: number): IPNet {
  const start = checkIPv4(n.ip);
  const mask = cidrMask(prefixLen, 8 * start.length);
  return { ip: ipMask(dec(start), mask), mask };
}

/** go-cidr's NextSubnet: the subnet of `prefixLen` bits after `n`, and whether it wrapped to zero. */
function nextSubnet(n: IPNet, prefixLen: number): [IPNet, boolean] {
  const [, currentLast] = addressRange(n);
  const mask = cidrMask(prefixLen, 8 * currentLast.length);
  const [, last] = addressRange({ ip: ipMask(currentLast, mask), mask });
  const after = inc(last);
  const next = { ip: ipMask(after, mask), mask };
  return [next, ipEqual(after, IPV4_ZERO) || ipEqual(after, IPV6_ZERO)];
}

/** cty's answer when a function implementation panics (without the Go stack trace). */
function panicked(e: unknown): { ok: false; error: { kind: "call"; message: string } } {
  if (e instanceof GoPanic) return callError(`panic in function implementation: ${e.message}`) as { ok: false; error: { kind: "call"; message: string } };
  throw e;
}

function str(v: Value): string {
  return v.kind === "string" ? v.value : "";
}

// ---------------------------------------------------------------------------------------------

const cidrHostFunc = new Func({
  params: [
    { name: "prefix", type: StringType },
    { name: "hostnum", type: NumberType },
  ],
  type: staticReturnType(StringType),
  refineResult: refineNonNull,
  impl: (args) => {
    const hostNum = bigInt(args[1] as Value);
    if (!hostNum.ok) return callError(hostNum.error);
    const parsed = parseCIDR(str(args[0] as Value));
    if (!parsed.ok) return callError(`invalid CIDR expression: ${parsed.error}`);
    try {
      const ip = hostBig(parsed.net, hostNum.value);
      return ip.ok ? ok(stringVal(ipString(ip.value))) : ip;
    } catch (e) {
      return panicked(e);
    }
  },
});

const cidrNetmaskFunc = new Func({
  params: [{ name: "prefix", type: StringType }],
  type: staticReturnType(StringType),
  refineResult: refineNonNull,
  impl: (args) => {
    const prefix = str(args[0] as Value);
    const parsed = parseCIDR(prefix);
    if (!parsed.ok) return callError(`invalid CIDR expression: ${parsed.error}`);
    if (to4(parsed.net.ip) === null) return callError(`IPv6 addresses cannot have a netmask: ${prefix}`);
    // The mask printed as an address: an IPv4-mapped network's 16-byte mask prints as IPv6.
    return ok(stringVal(ipString(parsed.net.mask)));
  },
});

const cidrSubnetFunc = new Func({
  params: [
    { name: "prefix", type: StringType },
    { name: "newbits", type: NumberType },
    { name: "netnum", type: NumberType },
  ],
  type: staticReturnType(StringType),
  refineResult: refineNonNull,
  impl: (args) => {
    const newBits = goInt(args[1] as Value);
    if (!newBits.ok) return callError(newBits.error);
    const netNum = bigInt(args[2] as Value);
    if (!netNum.ok) return callError(netNum.error);
    const parsed = parseCIDR(str(args[0] as Value));
    if (!parsed.ok) return callError(`invalid CIDR expression: ${parsed.error}`);
    try {
      const subnet = subnetBig(parsed.net, newBits.value, netNum.value);
      return subnet.ok ? ok(stringVal(ipNetString(subnet.value))) : subnet;
    } catch (e) {
      return panicked(e);
    }
  },
});

const cidrSubnetsFunc = new Func({
  params: [{ name: "prefix", type: StringType }],
  varParam: { name: "newbits", type: NumberType },
  type: staticReturnType(listOf(StringType)),
  refineResult: refineNonNull,
  impl: (args) => {
    const parsed = parseCIDR(str(args[0] as Value));
    if (!parsed.ok) return argError(0, `invalid CIDR expression: ${parsed.error}`);
    const network = parsed.net;
    const [startPrefixLen] = maskSize(network.mask);
    const lengths = args.slice(1);
    if (lengths.length === 0) return ok(listValEmpty(StringType));
    const first = goInt(lengths[0] as Value);
    if (!first.ok) return argError(1, first.error);
    const addrBits = 8 * (network.ip as Uint8Array).length;
    const protocol = addrBits === 32 ? "IPv4" : addrBits === 128 ? "IPv6" : "IP";
    try {
      let current = previousSubnet(network, smallInt(int64(first.value + BigInt(startPrefixLen))));
      const out: Value[] = [];
      for (let i = 0; i < lengths.length; i++) {
        const n = goInt(lengths[i] as Value);
        if (!n.ok) return argError(i + 1, n.error);
        if (n.value < 1n) return argError(i + 1, "must extend prefix by at least one bit");
        // OpenTofu limits each step to 32 bits, for 32-bit platforms' sake.
        if (n.value > 32n) return argError(i + 1, "may not extend prefix by more than 32 bits");
        const length = Number(n.value) + startPrefixLen;
        if (length > addrBits) {
          return argError(i + 1, `would extend prefix to ${length} bits, which is too long for an ${protocol} address`);
        }
        const [next, rollover] = nextSubnet(current, length);
        // Running out of room would otherwise carry into the prefix and leave the base network.
        if (rollover || !netContains(network, next.ip)) {
          return argError(i + 1, `not enough remaining address space for a subnet with a prefix of ${length} bits after ${ipNetString(current)}`);
        }
        current = next;
        out.push(stringVal(ipNetString(current)));
      }
      return ok(listVal(out));
    } catch (e) {
      return panicked(e);
    }
  },
});

const cidrContainsFunc = new Func({
  params: [
    { name: "containing_prefix", type: StringType },
    { name: "contained_ip_or_prefix", type: StringType },
  ],
  type: staticReturnType(BoolType),
  impl: (args) => {
    const prefix = str(args[0] as Value);
    const addr = str(args[1] as Value);
    const containing = parseCIDR(prefix);
    if (!containing.ok) return callError(containing.error);
    // The second argument is an address, or else a prefix whose first and last addresses must
    // both be inside.
    let start = parseIP(addr);
    let end: IP = null;
    if (start === null) {
      const contained = parseCIDR(addr);
      if (!contained.ok) return callError(`invalid IP address or prefix: ${addr}`);
      try {
        [start, end] = addressRange(contained.net);
      } catch (e) {
        return panicked(e);
      }
    }
    // Comparing across address families is an error rather than a plain false.
    if ((to4(start) === null) !== (to4(containing.net.ip) === null)) {
      return callError(`address family mismatch: ${prefix} vs. ${addr}`);
    }
    let result = netContains(containing.net, start);
    if (end !== null) result = result && netContains(containing.net, end);
    return ok(boolVal(result));
  },
});

export function cidrFunctions(_ctx: FunctionContext): Record<string, Func> {
  return {
    cidrcontains: cidrContainsFunc,
    cidrhost: cidrHostFunc,
    cidrnetmask: cidrNetmaskFunc,
    cidrsubnet: cidrSubnetFunc,
    cidrsubnets: cidrSubnetsFunc,
  };
}
