// OpenTofu's provider version constraints: go-versions' Ruby-style syntax (`>= 1.2.0, < 2.0.0`,
// `~> 1.2`, `= 1.0`, `!= 1.1`, bare `1.2.3`) parsed with its error texts, the canonical string
// OpenTofu writes into lock files (getproviders.VersionConstraintsString), and which versions a
// set of constraints admits.
import { goQuote } from "../values/index.js";
import { isWildcardNum, NUM_NAMES, scanConstraint, trimSpace } from "./scan.js";
import {
  compareVersions,
  isUnspecifiedVersion,
  makeVersion,
  sortVersions,
  versionsEqual,
  type ParseResult,
  type Version,
} from "./version.js";

/**
 * The operators a selection can use. `~>` with three numbers only allows newer patch releases
 * ("~patch"); with one or two numbers it allows newer minor releases ("~minor").
 */
export type ConstraintOp = "=" | "!=" | ">" | ">=" | "<" | "<=" | "~patch" | "~minor";

/** One number of a boundary; `undefined` where the number was left out (`~> 1.2`). */
export interface VersionSpec {
  readonly major: number | undefined;
  readonly minor: number | undefined;
  readonly patch: number | undefined;
  readonly prerelease: string;
  readonly metadata: string;
}

/** A single selection: an operator applied to a boundary version (go-versions' SelectionSpec). */
export interface VersionConstraint {
  readonly op: ConstraintOp;
  readonly boundary: VersionSpec;
}

/** All of these must hold (an intersection); empty means any version. */
export type VersionConstraints = readonly VersionConstraint[];

function toNum(s: string): number | undefined {
  return s === "" ? undefined : Number(s);
}

/** Parses one selection from the start of `str` (go-versions' parseRubyStyle). */
function parseRubyStyle(str: string): { constraint: VersionConstraint | undefined; remain: string; error?: string } {
  const { raw, remain } = scanConstraint(str);
  const fail = (error: string) => ({ constraint: undefined, remain, error });
  let op: ConstraintOp;
  switch (raw.op) {
    case "=":
    case "":
      op = "=";
      break;
    case "!=":
      op = "!=";
      break;
    case ">":
      op = ">";
      break;
    case ">=":
      op = ">=";
      break;
    case "<":
      op = "<";
      break;
    case "<=":
      op = "<=";
      break;
    case "~>":
      op = raw.numCt === 3 ? "~patch" : "~minor";
      break;
    case "=<":
      return fail(`invalid constraint operator ${goQuote(raw.op)}; did you mean "<="?`);
    case "=>":
      return fail(`invalid constraint operator ${goQuote(raw.op)}; did you mean ">="?`);
    default:
      return fail(`invalid constraint operator ${goQuote(raw.op)}`);
  }

  switch (raw.sep) {
    case "":
      // No separator is fine: rubygems' examples use a space, but do not require one.
      break;
    case " ":
      if (raw.op === "") return fail("extraneous spaces at start of specification");
      break;
    default:
      if (raw.sep.includes("v")) return fail('a "v" prefix should not be used when specifying versions');
      if (raw.op === "") return fail("extraneous spaces at start of specification");
      return fail(`only one space is expected after the operator ${goQuote(raw.op)}`);
  }

  if (raw.numCt > 3) return fail("too many numbered portions; only three are allowed (major, minor, patch)");
  for (let i = 0; i < 3; i++) {
    if (isWildcardNum(raw.nums[i] as string)) {
      return fail(`can't use wildcard for ${NUM_NAMES[i]} number; omit segments that should be unconstrained`);
    }
  }
  const nums = [...raw.nums];
  if (raw.pre !== "" || raw.meta !== "") {
    // A prerelease or metadata part makes the left-out numbers zero, so the boundary stays consistent.
    for (let i = 0; i < 3; i++) if (nums[i] === "") nums[i] = "0";
  }
  const boundary: VersionSpec = {
    major: toNum(nums[0] as string),
    minor: toNum(nums[1] as string),
    patch: toNum(nums[2] as string),
    prerelease: raw.pre,
    metadata: raw.meta,
  };
  return { constraint: { op, boundary }, remain };
}

/**
 * Parses a single constraint (go-versions' ParseRubyStyle); a comma-separated list is an error
 * here. Most callers want parseVersionConstraints.
 */
export function parseVersionConstraint(str: string): ParseResult<VersionConstraint> {
  if (trimSpace(str) === "") return { ok: false, error: "empty specification" };
  const r = parseRubyStyle(str);
  if (r.error !== undefined || r.constraint === undefined) return { ok: false, error: r.error ?? "invalid specification" };
  if (r.remain !== "") {
    const rest = trimSpace(r.remain);
    if (rest === "") return { ok: false, error: "extraneous spaces at end of specification" };
    if (rest.startsWith("v")) return { ok: false, error: 'a "v" prefix should not be used' };
    if (rest.startsWith("||") || rest.startsWith(",")) return { ok: false, error: "only one constraint may be specified" };
    if (rest.startsWith("-")) return { ok: false, error: "range constraints are not supported" };
    return { ok: false, error: `invalid characters ${goQuote(rest)}` };
  }
  return { ok: true, value: r.constraint };
}

/**
 * Parses comma-separated constraints (go-versions' ParseRubyStyleMulti, which OpenTofu's
 * getproviders.ParseVersionConstraints is). An empty string is no constraints at all.
 */
export function parseVersionConstraints(str: string): ParseResult<VersionConstraints> {
  const out: VersionConstraint[] = [];
  let remain = trimSpace(str);
  while (remain !== "") {
    const r = parseRubyStyle(remain);
    const consumed = remain.slice(0, remain.length - r.remain.length);
    if (r.error !== undefined || r.constraint === undefined) {
      return { ok: false, error: `invalid specification ${goQuote(consumed)}: ${r.error ?? "invalid specification"}` };
    }
    remain = trimSpace(r.remain);
    if (remain !== "") {
      if (remain.startsWith("v")) return { ok: false, error: 'a "v" prefix should not be used when specifying versions' };
      if (!remain.startsWith(",")) return { ok: false, error: `missing comma after ${goQuote(consumed)}` };
      remain = trimSpace(remain.slice(1));
    }
    out.push(r.constraint);
  }
  return { ok: true, value: out };
}

/** parseVersionConstraints for constraints the program itself supplies; invalid is a bug. */
export function mustParseVersionConstraints(str: string): VersionConstraints {
  const r = parseVersionConstraints(str);
  if (!r.ok) throw new Error(`invalid version constraints ${JSON.stringify(str)}: ${r.error}`);
  return r.value;
}

/** The boundary with left-out numbers as zero (go-versions' ConstrainToZero). */
function boundaryVersion(s: VersionSpec): Version {
  return makeVersion(s.major ?? 0, s.minor ?? 0, s.patch ?? 0, s.prerelease, s.metadata);
}

// The order OpenTofu writes operators in when boundaries are equal: lower bounds first, upper
// bounds last, which is how people usually write a range.
const OP_PRIORITY: Record<ConstraintOp, number> = { ">": 1, ">=": 2, "=": 3, "~patch": 4, "~minor": 5, "<=": 6, "<": 7, "!=": 8 };

const OP_TEXT: Record<ConstraintOp, string> = { ">": "> ", "<": "< ", ">=": ">= ", "~patch": "~> ", "~minor": "~> ", "<=": "<= ", "=": "", "!=": "!= " };

/**
 * The canonical form of a set of constraints, as OpenTofu writes it in the lock file and in
 * messages: deduplicated, sorted by boundary then operator, left-out numbers written as zero
 * (`~> 1` becomes `~> 1.0`, `1.2` becomes `1.2.0`), `=` written as a bare version.
 */
export function versionConstraintsString(constraints: VersionConstraints): string {
  if (constraints.length === 0) return "";
  const seen = new Map<string, { op: ConstraintOp; boundary: Version }>();
  for (const c of constraints) {
    const boundary = boundaryVersion(c.boundary);
    const key = `${c.op} ${boundary.major}.${boundary.minor}.${boundary.patch}-${boundary.prerelease}+${boundary.metadata}`;
    if (!seen.has(key)) seen.set(key, { op: c.op, boundary });
  }
  const sels = [...seen.values()].sort((a, b) => {
    let cmp = compareVersions(a.boundary, b.boundary);
    if (cmp === 0) {
      // Metadata has no precedence, but the order must still be stable.
      const am = a.boundary.metadata;
      const bm = b.boundary.metadata;
      cmp = am === bm ? 0 : am < bm ? -1 : 1;
    }
    return cmp !== 0 ? cmp : OP_PRIORITY[a.op] - OP_PRIORITY[b.op];
  });
  return sels
    .map(({ op, boundary: v }) => {
      // `~> 1.2` must keep two numbers: three would mean "patch releases only".
      let s = OP_TEXT[op] + (op === "~minor" ? `${v.major}.${v.minor}` : `${v.major}.${v.minor}.${v.patch}`);
      if (v.prerelease !== "") s += `-${v.prerelease}`;
      if (v.metadata !== "") s += `+${v.metadata}`;
      return s;
    })
    .join(", ");
}

/** Whether `v` is in the set one selection describes (go-versions' MeetingConstraints). */
function inSelection(v: Version, c: VersionConstraint): boolean {
  const lower = boundaryVersion(c.boundary);
  switch (c.op) {
    case "=":
      return versionsEqual(v, lower);
    case "!=":
      return !versionsEqual(v, lower);
    case ">":
      return compareVersions(v, lower) > 0;
    case ">=":
      return compareVersions(v, lower) >= 0;
    case "<":
      return compareVersions(v, lower) < 0;
    case "<=":
      return compareVersions(v, lower) <= 0;
    case "~minor": {
      const upper = makeVersion(lower.major + 1, 0, 0);
      return compareVersions(v, lower) >= 0 && compareVersions(v, upper) < 0;
    }
    case "~patch": {
      const upper = makeVersion(lower.major, lower.minor + 1, 0);
      return compareVersions(v, lower) >= 0 && compareVersions(v, upper) < 0;
    }
    default: {
      const never: never = c.op;
      throw new Error(`unknown constraint operator ${String(never)}`);
    }
  }
}

/**
 * Whether `v` meets every constraint. Two rules on top of the plain ranges:
 *   - a prerelease is admitted only when a `=` (or bare) constraint names it exactly, so
 *     `>= 1.0.0` never picks `2.0.0-beta1` (OpenTofu's documented prerelease rule);
 *   - the zero version 0.0.0 stands for "unspecified" and meets no constraint at all, as in
 *     go-versions, though it meets an empty set of constraints.
 */
export function meetsConstraints(v: Version, constraints: VersionConstraints): boolean {
  if (constraints.length === 0) return v.prerelease === "";
  if (isUnspecifiedVersion(v)) return false;
  for (const c of constraints) if (!inSelection(v, c)) return false;
  if (v.prerelease !== "") return constraints.some((c) => c.op === "=" && versionsEqual(boundaryVersion(c.boundary), v));
  return true;
}

/** The newest of `available` that meets the constraints, or undefined. */
export function newestMatching(available: readonly Version[], constraints: VersionConstraints): Version | undefined {
  const sorted = sortVersions(available);
  for (let i = sorted.length - 1; i >= 0; i--) {
    const v = sorted[i] as Version;
    if (meetsConstraints(v, constraints)) return v;
  }
  return undefined;
}

/** Whether the constraints admit exactly one version, and it is 0.0.0 (OpenTofu refuses it). */
export function constraintsOnlyUnspecified(constraints: VersionConstraints): boolean {
  const exact = constraints.filter((c) => c.op === "=");
  const first = exact[0];
  if (first === undefined) return false;
  const zero = boundaryVersion(first.boundary);
  return isUnspecifiedVersion(zero) && exact.every((c) => versionsEqual(boundaryVersion(c.boundary), zero)) && constraints.every((c) => inSelection(zero, c));
}

