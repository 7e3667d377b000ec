// Printing addresses exactly as OpenTofu prints them (addrs.StringKey.String, toHCLQuotedString),
// so an address copied from Terrace can be pasted into `tofu state show` or a `-target`.

/** An instance key: null for a resource without count/for_each, a number for count, a string for for_each. */
export type InstanceKey = string | number | null;

// Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** A string quoted as an HCL quoted template, with template introducers (`${`, `%{`) escaped. */
export function hclQuote(s: string): string {
  let out = '"';
  let plainFrom = 0;
  let i = 0;
  // Fast path: copy runs of plain ASCII in one slice; only unusual characters take the slow path.
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c && c !== 0x24 && c !== 0x25) {
      i++;
      continue;
    }
    out += s.slice(plainFrom, i);
    const cp = s.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    switch (cp) {
      case 0x0a:
        out += "\\n";
        break;
      case 0x0d:
        out += "\\r";
        break;
      case 0x09:
        out += "\\t";
        break;
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += "\\\\";
        break;
      case 0x24: // $
      case 0x25: // %
        out += s[i];
        if (s[i + 1] === "{") out += s[i];
        break;
      default: {
        const ch = String.fromCodePoint(cp);
        // A lone surrogate is not a printable character; it is escaped like any other.
        if (PRINTABLE.test(ch) && !(cp >= 0xd800 && cp <= 0xdfff)) out += ch;
        else out += cp < 0x10000 ? `\\u${cp.toString(16).padStart(4, "0")}` : `\\U${cp.toString(16).padStart(8, "0")}`;
      }
    }
    i += width;
    plainFrom = i;
  }
  return out + s.slice(plainFrom) + '"';
}

/** `[0]`, `["x"]`, or "" for no key. */
export function formatKey(key: InstanceKey): string {
  if (key === null) return "";
  return typeof key === "number" ? `[${key}]` : `[${hclQuote(key)}]`;
}

/** `module.a["x"].aws_instance.web` or `data.aws_ami.x` (no instance key). */
export function resourceAddress(module: string, mode: "managed" | "data", type: string, name: string): string {
  const local = mode === "data" ? `data.${type}.${name}` : `${type}.${name}`;
  return module ? `${module}.${local}` : local;
}

/** `module.a["x"].aws_instance.web[0]`. */
export function instanceAddress(module: string, mode: "managed" | "data", type: string, name: string, key: InstanceKey): string {
  return resourceAddress(module, mode, type, name) + formatKey(key);
}

/**
 * Orders instance keys as OpenTofu does (addrs.InstanceKeyLess): no key first, then integer keys
 * by value, then string keys by code unit.
 */
export function compareKeys(a: InstanceKey, b: InstanceKey): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  const ta = typeof a;
  const tb = typeof b;
  if (ta !== tb) return ta === "number" ? -1 : 1;
  if (ta === "number") return (a as number) - (b as number);
  return (a as string) < (b as string) ? -1 : 1;
}

/** A step of an attribute path: an attribute or map key (string) or a list index (number). */
export type PathStep = string | number;

const IDENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * An attribute path as people write it in HCL: `tags.Name`, `ingress[0].cidr_blocks[1]`,
 * `tags["kubernetes.io/role"]` (keys that are not identifiers are quoted).
 */
export function formatPath(path: readonly PathStep[]): string {
  let out = "";
  for (const step of path) {
    if (typeof step === "number") out += `[${step}]`;
    else if (IDENT.test(step)) out += out ? `.${step}` : step;
    else out += `[${hclQuote(step)}]`;
  }
  return out;
}
