// Version constraints (`required_version`, provider and module `version`) in hashicorp/go-version's
// syntax: comma-separated `op version` terms, ops `=`, `!=`, `>`, `>=`, `<`, `<=`, `~>`.
import { errorDiag, type ContentAttribute, type Diagnostic, type Range } from "../hcl/index.js";
import { StringType, convert, hasMark, SENSITIVE, type Value } from "../values/index.js";
import { staticValue } from "./body.js";

export type ConstraintOp = "=" | "!=" | ">" | ">=" | "<" | "<=" | "~>";

export interface Version {
  /** Numeric segments as written (1.2 has two). */
  segments: number[];
  prerelease: string;
  metadata: string;
  /** The text as written, without any leading "v". */
  original: string;
}

export interface ConstraintTerm {
  op: ConstraintOp;
  version: Version;
}

export interface VersionConstraint {
  /** The parsed terms; empty when no constraint was given (or the value was null). */
  required: ConstraintTerm[];
  /** The constraint string as written, "" when absent. */
  raw: string;
  declRange: Range | undefined;
}

const VERSION_RE =
  /^v?([0-9]+(?:\.[0-9]+)*?)(?:-([0-9]+[0-9A-Za-z\-~]*(?:\.[0-9A-Za-z\-~]+)*)|(?:-?([A-Za-z\-~]+[0-9A-Za-z\-~]*(?:\.[0-9A-Za-z\-~]+)*)))?(?:\+([0-9A-Za-z\-~]+(?:\.[0-9A-Za-z\-~]+)*))?$/;
const TERM_RE = /^\s*(=|!=|>=|<=|>|<|~>)?\s*(\S+)\s*$/;

/** Parses a version (go-version's NewVersion); undefined when malformed. */
export function parseVersion(s: string): Version | undefined {
  const m = VERSION_RE.exec(s.trim());
  if (!m) return undefined;
  const segments = (m[1] ?? "").split(".").map((x) => Number(x));
  if (segments.some((n) => !Number.isSafeInteger(n))) return undefined;
  return { segments, prerelease: m[2] ?? m[3] ?? "", metadata: m[4] ?? "", original: s.trim().replace(/^v/, "") };
}

/** Parses a constraint string (go-version's NewConstraint); undefined when malformed. */
export function parseConstraint(s: string): ConstraintTerm[] | undefined {
  const terms: ConstraintTerm[] = [];
  for (const part of s.split(",")) {
    const m = TERM_RE.exec(part);
    if (!m) return undefined;
    const version = parseVersion(m[2] ?? "");
    if (!version) return undefined;
    terms.push({ op: (m[1] ?? "=") as ConstraintOp, version });
  }
  return terms;
}

export function versionString(v: Version): string {
  let s = v.segments.join(".");
  if (v.prerelease) s += "-" + v.prerelease;
  if (v.metadata) s += "+" + v.metadata;
  return s;
}

function segmentsOf(v: Version, n: number): number[] {
  const out = v.segments.slice(0, n);
  while (out.length < n) out.push(0);
  return out;
}

/** Compares versions as go-version does (segments padded with zeros; a prerelease sorts first). */
export function compareVersions(a: Version, b: Version): number {
  const n = Math.max(a.segments.length, b.segments.length, 3);
  const sa = segmentsOf(a, n);
  const sb = segmentsOf(b, n);
  for (let i = 0; i < n; i++) {
    const d = (sa[i] as number) - (sb[i] as number);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  if (a.prerelease === b.prerelease) return 0;
  if (a.prerelease === "") return 1;
  if (b.prerelease === "") return -1;
  return comparePrerelease(a.prerelease, b.prerelease);
}

function comparePrerelease(a: string, b: string): number {
  const pa = a.split(".");
  const pb = b.split(".");
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny) return Number(x) < Number(y) ? -1 : 1;
    if (nx) return -1;
    if (ny) return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

/** Whether the version meets every term (go-version's Constraints.Check). */
export function versionMeets(v: Version, terms: readonly ConstraintTerm[]): boolean {
  return terms.every((t) => termAllows(t, v));
}

function termAllows(t: ConstraintTerm, v: Version): boolean {
  // A prerelease version only satisfies terms that name a prerelease of the same core version.
  if (v.prerelease !== "" && (t.version.prerelease === "" || compareVersions({ ...v, prerelease: "" }, { ...t.version, prerelease: "" }) !== 0)) {
    return false;
  }
  const c = compareVersions(v, t.version);
  switch (t.op) {
    case "=":
      return c === 0;
    case "!=":
      return c !== 0;
    case ">":
      return c > 0;
    case ">=":
      return c >= 0;
    case "<":
      return c < 0;
    case "<=":
      return c <= 0;
    case "~>": {
      if (c < 0) return false;
      const n = t.version.segments.length;
      const prefix = Math.max(n - 1, 1);
      const a = segmentsOf(v, prefix);
      const b = segmentsOf(t.version, prefix);
      return a.every((x, i) => x === b[i]);
    }
  }
}

/** Decodes a version constraint argument whose value must be a static string. */
export function decodeVersionConstraint(attr: ContentAttribute): { constraint: VersionConstraint; diagnostics: Diagnostic[] } {
  const r = staticValue(attr.expr);
  if (r.diagnostics.some((d) => d.severity === "error")) {
    return { constraint: { required: [], raw: "", declRange: undefined }, diagnostics: r.diagnostics };
  }
  return decodeVersionConstraintValue(attr, r.value);
}

/** Decodes an already-evaluated version constraint value (also used by static evaluation). */
export function decodeVersionConstraintValue(attr: ContentAttribute, val: Value): { constraint: VersionConstraint; diagnostics: Diagnostic[] } {
  const constraint: VersionConstraint = { required: [], raw: "", declRange: attr.range };
  if (hasMark(val, SENSITIVE)) {
    return {
      constraint,
      diagnostics: [
        errorDiag(
          "Invalid version constraint",
          `Sensitive values, or values derived from sensitive values, cannot be used as ${attr.name} arguments.`,
          attr.expr.range,
        ),
      ],
    };
  }
  const c = convert(val, StringType);
  if (!c.ok) {
    return { constraint, diagnostics: [errorDiag("Invalid version constraint", `A string value is required for ${attr.name}.`, attr.expr.range)] };
  }
  if (c.value.kind !== "string") return { constraint, diagnostics: [] };
  const terms = parseConstraint(c.value.value);
  if (!terms) {
    return {
      constraint,
      diagnostics: [errorDiag("Invalid version constraint", "This string does not use correct version constraint syntax.", attr.expr.range)],
    };
  }
  constraint.required = terms;
  constraint.raw = c.value.value;
  return { constraint, diagnostics: [] };
}
