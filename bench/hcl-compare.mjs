// Checks that two builds of the HCL native-syntax parser give the same results (not a benchmark:
// the guard for parser performance work, whose changes must be invisible to every consumer).
// Parses every file under ../shared/realworld, the hand-written and mutated syntax corpora of
// engine/src/hcl/testdata (broken input: recovery paths and diagnostics), a sample of the
// generated bench configuration, and each corpus file again as a standalone expression and
// template, with `parseConfig`/`parseExpression`/`parseTemplate` of both builds, and compares:
// the trees (node kinds, names, values, arrays, every field a consumer can read, and every range
// read through its getter: filename, line, column, byte of start and end) and the diagnostics
// (severity, summary, detail, subject and context). Ranges are read twice, in tree order and
// then in reverse, since positions are computed when read.
//
//   node bench/hcl-compare.mjs            # this checkout's engine/dist against BENCH_BASE_DIST
// Options (env): BENCH_BASE_DIST (the other build's dist; default
//   node_modules/.cache/base-engine/dist), BENCH_ENGINE_DIST (this build; default engine/dist,
//   rebuilt first), BENCH_MB (generated configuration size, 2).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { writeConfig } from "./lib/hcl-config.mjs";
import { importEngine, MiB } from "./lib/engine.mjs";
import { ENGINE, ROOT } from "../scripts/lib/paths.mjs";

const BASE = process.env.BENCH_BASE_DIST ?? path.join(ROOT, "node_modules", ".cache", "base-engine", "dist");
const SIZE = Number(process.env.BENCH_MB ?? 2) * MiB;

const next = await importEngine("hcl");
const base = await import(pathToFileURL(path.join(path.resolve(BASE), "hcl", "index.js")).href);

/** Fields that hold ranges, read through whatever the node offers (a property or a getter). */
const RANGE_FIELDS = [
  "range",
  "nameRange",
  "equalsRange",
  "typeRange",
  "labelRanges",
  "openBraceRange",
  "closeBraceRange",
  "endRange",
  "openRange",
  "closeRange",
  "bracketRange",
  "markerRange",
  "symbolRange",
  "openParenRange",
  "closeParenRange",
  "subject",
  "context",
];

let comparisons = 0;
const differences = [];

function isRange(v) {
  return v !== null && typeof v === "object" && "filename" in v && "start" in v && "end" in v;
}

/**
 * The fields of a node a consumer can read: its plain form's (a node that keeps its ranges as
 * offsets says which fields it has through toJSON), plus the range fields it answers.
 */
function fieldsOf(v) {
  const keys = new Set();
  const plain = typeof v.toJSON === "function" ? v.toJSON() : v;
  for (const k of Object.keys(plain)) if (v[k] !== undefined && typeof v[k] !== "function") keys.add(k);
  for (const k of RANGE_FIELDS) if (v[k] !== undefined) keys.add(k);
  return keys;
}

function differ(where, a, b) {
  if (differences.length < 20) differences.push(`${where}: ${JSON.stringify(a)?.slice(0, 200)} != ${JSON.stringify(b)?.slice(0, 200)}`);
  else differences.length++;
}

/** Compares a (old build) with b (new build); ranges are collected to be compared afterwards. */
function compare(where, a, b, ranges) {
  comparisons++;
  if (a === b) return;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return differ(where, a, b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return differ(`${where} (array)`, a?.length, b?.length);
    for (let i = 0; i < a.length; i++) compare(`${where}[${i}]`, a[i], b[i], ranges);
    return;
  }
  if (isRange(a) || isRange(b)) {
    ranges.push([where, a, b]);
    return;
  }
  if (a instanceof Map || b instanceof Map) return compare(`${where} (map)`, [...a], [...b], ranges);
  const ka = fieldsOf(a);
  const kb = fieldsOf(b);
  const sa = [...ka].sort().join(",");
  const sb = [...kb].sort().join(",");
  if (sa !== sb) return differ(`${where} (fields)`, sa, sb);
  for (const k of ka) compare(`${where}.${k}`, a[k], b[k], ranges);
}

function plainRange(r) {
  return {
    filename: r.filename,
    start: { line: r.start.line, column: r.start.column, byte: r.start.byte },
    end: { line: r.end.line, column: r.end.column, byte: r.end.byte },
  };
}

function compareRanges(ranges) {
  // Read every range of both trees in tree order, then again in reverse order, and compare.
  const forward = ranges.map(([, a, b]) => [plainRange(a), plainRange(b)]);
  const backward = [...ranges].reverse().map(([, a, b]) => [plainRange(a), plainRange(b)]).reverse();
  for (let i = 0; i < ranges.length; i++) {
    const where = ranges[i][0];
    for (const [a, b] of [forward[i], backward[i]]) {
      comparisons++;
      if (JSON.stringify(a) !== JSON.stringify(b)) differ(`${where} (range)`, a, b);
    }
  }
}

function compareParse(label, fn, bytes) {
  const a = base[fn](bytes, label);
  const b = next[fn](bytes, label);
  const ranges = [];
  compare(`${label} ${fn}`, a, b, ranges);
  compareRanges(ranges);
  // Serialised forms (what a consumer writing JSON would see) must be the same too.
  comparisons++;
  const ja = JSON.stringify(a.result);
  const jb = JSON.stringify(b.result);
  if (ja !== jb) {
    let i = 0;
    while (ja[i] === jb[i]) i++;
    differ(`${label} ${fn} (JSON form at ${i})`, ja.slice(Math.max(0, i - 80), i + 80), jb.slice(Math.max(0, i - 80), i + 80));
  }
}

function walk(dir, out) {
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(tf|tofu|tfvars|hcl)$/.test(name)) out.push(p);
  }
  return out;
}

const inputs = [];
for (const p of walk(path.join(ROOT, "..", "shared", "realworld"), [])) inputs.push([path.relative(path.join(ROOT, ".."), p), readFileSync(p)]);
for (const corpus of ["syntax-corpus.json", "mutated-corpus.json"]) {
  for (const c of JSON.parse(readFileSync(path.join(ENGINE, "src", "hcl", "testdata", corpus), "utf8"))) inputs.push([`${corpus}:${c.name}`, c.bytes ? Uint8Array.from(c.bytes) : Buffer.from(c.src, "utf8")]);
}
const dir = mkdtempSync(path.join(os.tmpdir(), "terrace-bench-compare-"));
try {
  writeConfig(dir, { bytes: SIZE, perFile: 100, flavour: "mixed", seed: 1 });
  for (const name of readdirSync(dir).sort()) inputs.push([`generated/${name}`, readFileSync(path.join(dir, name))]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

for (const [label, bytes] of inputs) {
  compareParse(label, "parseConfig", bytes);
  compareParse(label, "parseExpression", bytes);
  compareParse(label, "parseTemplate", bytes);
}
console.log(`${inputs.length} inputs (x3 entry points), ${comparisons} comparisons, ${differences.length} differences`);
for (const d of differences.slice(0, 20)) console.log(`  ${d}`);
process.exit(differences.length === 0 ? 0 : 1);
