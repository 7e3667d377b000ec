// One namespace or type part of a provider source address (registry-address's ParseProviderPart).
// Parts follow DNS label rules so that they are safe as directory names on case-insensitive file
// systems and as repository names: case-folded to lowercase, letters, digits, dashes and
// underscores only, no dots, no doubled or edge separators.

const BAD_CHARS =
  "must contain only letters, digits, dashes, and underscores, and may not use leading or trailing dashes or underscores";

export type ProviderPartResult = { part: string; error?: undefined } | { part?: undefined; error: string };

/** ASCII letters must be lowercase after mapping: a-z, 0-9, `-` and `_`. */
function validASCII(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f;
}

/** A user-given namespace or type normalised (lowercased), or the reason it is invalid. */
export function parseProviderPart(given: string): ProviderPartResult {
  if (given.length === 0) return { error: "must have at least one character" };
  if (given.includes(".")) return { error: "dots are not allowed" };
  // Doubled dashes also rule out the Punycode prefix `xn--`, which would be decoded otherwise.
  if (given.includes("--")) return { error: "cannot use multiple consecutive dashes" };
  if (given.includes("__")) return { error: "cannot use multiple consecutive underscores" };
  if (given.startsWith("_") || given.endsWith("_")) return { error: "underscores may not be used as a prefix or suffix" };

  // IDNA's lookup mapping without the STD3 restriction: case folding and compatibility
  // normalisation, then hyphens only inside the label.
  const mapped = given.normalize("NFKC").toLowerCase();
  if (mapped.startsWith("-") || mapped.endsWith("-")) return { error: BAD_CHARS };
  for (const ch of mapped) {
    const c = ch.codePointAt(0) as number;
    if (c < 0x80 ? !validASCII(c) : !/[\p{L}\p{M}\p{N}]/u.test(ch)) return { error: BAD_CHARS };
  }
  return { part: mapped };
}

/** parseProviderPart for names the program itself supplies; an invalid one is a bug. */
export function mustParseProviderPart(given: string): string {
  const r = parseProviderPart(given);
  if (r.error !== undefined) throw new Error(r.error);
  return r.part;
}

/** Whether a name is already in normal form; `error` when it is not a valid part at all. */
export function isProviderPartNormalized(given: string): { normalized: boolean; error?: string } {
  const r = parseProviderPart(given);
  if (r.error !== undefined) return { normalized: false, error: r.error };
  return { normalized: r.part === given };
}
