// Service hostnames (OpenTofu's svchost package): the hostname part of a provider source address
// such as `registry.opentofu.org` or `example.com:8443`. Normalisation follows IDNA's lookup
// profile closely enough for real hostnames; the one deliberate difference is that non-ASCII
// labels are kept in their Unicode (display) form instead of Punycode, because every place that
// prints a hostname shows the display form and equal inputs still normalise to equal strings.
import { goQuote } from "../values/index.js";

const ACE_PREFIX = "xn--";

export type HostnameResult = { hostname: string; error?: undefined } | { hostname?: undefined; error: string };

/** Go's strconv.Atoi range: larger numbers fail to parse (and so count as "non-digit"). */
const INT64_MAX = 9223372036854775807n;

/** The `:port` suffix in canonical form: `:443` is the default and disappears. */
function normalizePortPortion(s: string): { port: string; error?: string } {
  if (s === "") return { port: "" };
  const numStr = s.slice(1);
  if (!/^[+-]?[0-9]+$/.test(numStr)) return { port: s, error: "port portion contains non-digit characters" };
  const big = BigInt(numStr);
  if (big > INT64_MAX || big < -INT64_MAX - 1n) return { port: s, error: "port portion contains non-digit characters" };
  if (big === 443n) return { port: "" };
  if (big > 65535n) return { port: s, error: "port number is greater than 65535" };
  return { port: `:${big.toString()}` };
}

/** Go's %U verb: `U+005F`. */
function runeName(ch: string): string {
  return "U+" + (ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0");
}

/**
 * One label through IDNA's lookup mapping and validity rules (UTS #46 with STD3 ASCII rules and
 * hyphen checks): lowercase, NFKC, only letters/digits/hyphens in ASCII, no leading or trailing
 * hyphen, no `--` in the third and fourth positions.
 */
function lookupLabel(label: string): { label: string; error?: string } {
  const mapped = label.normalize("NFKC").toLowerCase();
  for (const ch of mapped) {
    const c = ch.codePointAt(0) as number;
    const ok = c < 0x80 ? (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d : /[\p{L}\p{M}\p{N}]/u.test(ch);
    if (!ok) return { label: mapped, error: `idna: disallowed rune ${runeName(ch)}` };
  }
  if ((mapped.length > 3 && mapped.slice(2, 4) === "--") || mapped.startsWith("-") || mapped.endsWith("-")) {
    return { label: mapped, error: `idna: invalid label ${goQuote(mapped)}` };
  }
  return { label: mapped };
}

/**
 * A user-given hostname in the form used for storage and comparison (svchost.ForComparison), or
 * the error text svchost reports for it.
 */
export function hostnameForComparison(given: string): HostnameResult {
  let host = given;
  let portPortion = "";
  const colon = given.indexOf(":");
  if (colon !== -1) {
    host = given.slice(0, colon);
    portPortion = given.slice(colon);
  }
  const port = normalizePortPortion(portPortion);
  if (port.error !== undefined) {
    // A URL's scheme separator looks like a port: say what is wrong instead.
    const lower = host.toLowerCase();
    if (lower === "https" || lower === "http") return { error: "need just a hostname and optional port number, not a full URL" };
    return { error: port.error };
  }
  if (host === "") return { error: "empty string is not a valid hostname" };

  const labels = host.split(".");
  // A single trailing dot names the DNS root: it makes no empty label and is kept.
  const rooted = labels.length > 1 && labels[labels.length - 1] === "";
  if (rooted) labels.pop();
  for (const label of labels) {
    if (label === "") return { error: "hostname contains empty label (two consecutive periods)" };
    // Punycode must not be written by hand: configurations should show readable names.
    if (label.startsWith(ACE_PREFIX)) {
      return { error: `hostname label ${goQuote(label)} specified in punycode format; service hostnames must be given in unicode` };
    }
  }
  const out: string[] = [];
  for (const label of labels) {
    const r = lookupLabel(label);
    if (r.error !== undefined) return { error: r.error };
    out.push(r.label);
  }
  return { hostname: out.join(".") + (rooted ? "." : "") + port.port };
}
