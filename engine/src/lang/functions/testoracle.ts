// Comparing one category's functions with recorded `terraform console` answers, without loading
// the whole function table (so a category's tests do not depend on the others' progress).
// Same answer shapes as ./oracle.testkit.ts.
import type { FunctionContext } from "./context.js";

export type OracleAnswer = { ok: true; output: string } | { ok: false; summary: string; detail: string };

export interface OracleFile {
  readonly terraformVersion: string;
  readonly answers: Readonly<Record<string, OracleAnswer>>;
}

/** Terraform wraps diagnostic details at the terminal width; compare them with spaces collapsed. */
export function normalizeDetail(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** The recorded answer with its detail unwrapped. */
export function expected(a: OracleAnswer): OracleAnswer {
  return a.ok ? a : { ok: false, summary: a.summary, detail: normalizeDetail(a.detail) };
}

/** A context with no files, time zero and all-zero "randomness". */
export const noContext: FunctionContext = {
  baseDir: ".",
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
