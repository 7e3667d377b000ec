// Comparing our function results with answers recorded from `terraform console` (see
// engine/scripts/function-oracle.mjs). Browser-safe: the test files read the JSON and pass it in.
import { builtinFunctions } from "./index.js";
import type { FunctionContext } from "./context.js";
import { evaluate } from "./testeval.js";
import { formatValue, type Value } from "../../values/index.js";

export type OracleAnswer = { ok: true; output: string } | { ok: false; summary: string; detail: string };

export interface OracleFile {
  readonly terraformVersion: string;
  readonly answers: Readonly<Record<string, OracleAnswer>>;
}

/** Terraform wraps diagnostic details at the terminal width; compare them with spaces collapsed. */
export function normalizeDetail(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** A context for tests that must not touch files, time or randomness. */
export const testContext: FunctionContext = {
  baseDir: "/",
  fs: {
    readFile: () => undefined,
    isFile: () => false,
    isDirectory: () => false,
    readDir: () => [],
    abs: (p) => p,
    home: () => undefined,
  },
  now: () => new Date(0),
  randomBytes: (n) => new Uint8Array(n),
};

/** Our answer in the shape of a recorded one. */
export function answer(expr: string, vars: Record<string, Value> = {}): OracleAnswer {
  const r = evaluate(expr, builtinFunctions(testContext), vars);
  if (r.ok) return { ok: true, output: formatValue(r.value) };
  return { ok: false, summary: r.summary, detail: normalizeDetail(r.detail) };
}

/** The recorded answer with its detail unwrapped, for toEqual against `answer`. */
export function expected(a: OracleAnswer): OracleAnswer {
  return a.ok ? a : { ok: false, summary: a.summary, detail: normalizeDetail(a.detail) };
}
