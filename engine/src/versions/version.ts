// Semantic versions as OpenTofu uses them for providers (apparentlymart/go-versions' Version):
// parsing with its error texts, canonical printing, and precedence.
import { goQuote } from "../values/index.js";
import { isWildcardNum, NUM_NAMES, scanConstraint, trimSpace } from "./scan.js";

export interface Version {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  /** Dot-separated identifiers after `-`, or "". */
  readonly prerelease: string;
  /** Build metadata after `+`, or "". It takes no part in precedence. */
  readonly metadata: string;
}

/** A parse outcome: the value, or an error message worded as go-versions words it. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** The zero version, which go-versions also uses to mean "no version at all". */
export const UNSPECIFIED_VERSION: Version = Object.freeze({ major: 0, minor: 0, patch: 0, prerelease: "", metadata: "" });

export function makeVersion(major: number, minor: number, patch: number, prerelease = "", metadata = ""): Version {
  return { major, minor, patch, prerelease, metadata };
}

/**
 * Parses an exact version (`1.2.3`, `1.2.3-beta.1+build`); missing minor and patch numbers are
 * zero (`1.2` is `1.2.0`). Errors are go-versions' ParseExactVersion texts.
 */
export function parseVersion(vs: string): ParseResult<Version> {
  const fail = (error: string): ParseResult<Version> => ({ ok: false, error });
  if (trimSpace(vs) === "") return fail("empty specification");
  const { raw, remain } = scanConstraint(vs);

  switch (trimSpace(raw.op)) {
    case ">":
    case ">=":
    case "<":
    case "<=":
    case "!":
    case "!=":
    case "~>":
    case "^":
    case "~":
      // Someone wrote a constraint where a single version was wanted.
      return fail(`can't use constraint operator ${goQuote(raw.op)}; an exact version is required`);
    case "":
      if (raw.sep !== "") {
        if (raw.sep.includes("v")) return fail('a "v" prefix should not be used');
        return fail("extraneous spaces at start of specification");
      }
      break;
    default:
      return fail(`invalid sequence ${goQuote(raw.op)} at start of specification`);
  }

  if (remain !== "") {
    const rest = trimSpace(remain);
    if (rest === "") return fail("extraneous spaces at end of specification");
    if (vs.startsWith("v")) return fail('a "v" prefix should not be used');
    if (rest.startsWith(",") || rest.startsWith("|")) return fail("can't specify multiple versions; a single exact version is required");
    if (rest.startsWith("-")) return fail("can't specify version range; a single exact version is required");
    if (trimSpace(vs).startsWith(rest)) return fail("invalid specification; required format is three positive integers separated by periods");
    return fail(`invalid characters ${goQuote(rest)}`);
  }

  if (raw.numCt > 3) return fail("too many numbered portions; only three are allowed (major, minor, patch)");
  const nums = [...raw.nums];
  for (let i = raw.numCt; i < 3; i++) nums[i] = "0";
  for (let i = 0; i < 3; i++) {
    if (isWildcardNum(nums[i] as string)) return fail(`can't use wildcard for ${NUM_NAMES[i]} number; an exact version is required`);
  }
  return { ok: true, value: makeVersion(Number(nums[0]), Number(nums[1]), Number(nums[2]), raw.pre, raw.meta) };
}

/** parseVersion for versions the program itself supplies; an invalid one is a bug. */
export function mustParseVersion(s: string): Version {
  const r = parseVersion(s);
  if (!r.ok) throw new Error(`invalid version ${JSON.stringify(s)}: ${r.error}`);
  return r.value;
}

/** The canonical form: `1.2.3`, `1.2.3-beta.1`, `1.2.3+build`. */
export function versionString(v: Version): string {
  let s = `${v.major}.${v.minor}.${v.patch}`;
  if (v.prerelease !== "") s += `-${v.prerelease}`;
  if (v.metadata !== "") s += `+${v.metadata}`;
  return s;
}

function isNumeric(s: string): boolean {
  return /^[0-9]*$/.test(s);
}

function compareIdentifiers(a: string, b: string): number {
  const an = isNumeric(a);
  const bn = isNumeric(b);
  if (an && !bn) return -1;
  if (bn && !an) return 1;
  if (an) {
    // Compared as numbers of any size: a longer digit string is larger (no leading zeros in semver).
    if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Semver precedence of two prerelease strings, "" being a release (which outranks any
 * prerelease). go-versions gets two corner cases of the semver rules wrong (a release sorted
 * below its prereleases in older releases, and a shorter identifier list compared before its
 * common prefix); we follow semver.org.
 */
function comparePrerelease(a: string, b: string): number {
  if (a === b) return 0;
  if (a === "") return 1;
  if (b === "") return -1;
  const ap = a.split(".");
  const bp = b.split(".");
  const n = Math.min(ap.length, bp.length);
  for (let i = 0; i < n; i++) {
    const c = compareIdentifiers(ap[i] as string, bp[i] as string);
    if (c !== 0) return c;
  }
  return ap.length === bp.length ? 0 : ap.length < bp.length ? -1 : 1;
}

/** Precedence order (-1, 0, 1); build metadata is ignored, as semver says. */
export function compareVersions(a: Version, b: Version): number {
  if (a.major !== b.major) return a.major < b.major ? -1 : 1;
  if (a.minor !== b.minor) return a.minor < b.minor ? -1 : 1;
  if (a.patch !== b.patch) return a.patch < b.patch ? -1 : 1;
  return comparePrerelease(a.prerelease, b.prerelease);
}

export function versionLessThan(a: Version, b: Version): boolean {
  return compareVersions(a, b) < 0;
}

export function versionGreaterThan(a: Version, b: Version): boolean {
  return compareVersions(a, b) > 0;
}

/** Same precedence: equal numbers and prerelease; metadata not considered (go-versions' Same). */
export function sameVersion(a: Version, b: Version): boolean {
  return compareVersions(a, b) === 0;
}

/** Identical, metadata included: a different build is a different package. */
export function versionsEqual(a: Version, b: Version): boolean {
  return sameVersion(a, b) && a.metadata === b.metadata;
}

export function isUnspecifiedVersion(v: Version): boolean {
  return versionsEqual(v, UNSPECIFIED_VERSION);
}

/** Sorted by increasing precedence; versions differing only in metadata keep their input order. */
export function sortVersions(list: readonly Version[]): Version[] {
  return [...list].sort(compareVersions);
}
