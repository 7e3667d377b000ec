// Property test: the parsers never throw, and every range they report lies inside the input.
// Bounded and deterministic (fixed seed): random byte strings, token soups, and real-world
// configurations with random mutations.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseJSONConfig } from "./json/parser.js";
import { parseConfig, parseExpression, parseTemplate } from "./parse.js";
import type { Range } from "./pos.js";
import { renderDiagnostic } from "./render.js";
import { byteLength, decodeSource } from "./source.js";

const REALWORLD = path.resolve(import.meta.dirname, "../../../../shared/realworld");

function tfFiles(dir: string): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out = out.concat(tfFiles(p));
    else if (name.endsWith(".tf")) out.push(p);
  }
  return out.sort();
}

/** mulberry32: a small, fixed-seed PRNG so failures reproduce. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  "{", "}", "[", "]", "(", ")", '"', "${", "%{", "~}", "}", "<<EOT\n", "<<-EOT\n", "EOT\n", "\n", " ", "\t", "=", "==", "!=",
  "=>", "...", ".", ",", ":", "::", "?", "!", "-", "+", "*", "/", "%", "&&", "||", "<", ">", "#", "//", "/*", "*/", "\\", "\\u",
  "a", "foo", "for", "in", "if", "else", "endif", "endfor", "true", "null", "0", "1.5", "1e", "é", "😀", "\r\n", "'", "`", ";",
  "$", "&", "|", "^", "~", "\u0000", "\uFEFF", "resource", "provider::x::f",
];

function checkRange(r: Range, size: number, where: string): void {
  const ok =
    r.start.byte >= 0 && r.end.byte <= size && r.start.byte <= r.end.byte && r.start.line >= 1 && r.start.column >= 1 &&
    r.end.line >= r.start.line;
  if (!ok) throw new Error(`range out of bounds at ${where}: ${JSON.stringify(r)} (input ${size} bytes)`);
}

/** Walks any tree of plain objects and checks every value that looks like a Range. */
function checkTree(node: unknown, size: number, where: string, seen: Set<unknown>): void {
  if (node === null || typeof node !== "object" || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) {
    for (const x of node) checkTree(x, size, where, seen);
    return;
  }
  const obj = node as Record<string, unknown>;
  if ("start" in obj && "end" in obj && "filename" in obj) {
    checkRange(obj as unknown as Range, size, where);
    return;
  }
  for (const v of Object.values(obj)) checkTree(v, size, where, seen);
}

function check(input: string | Uint8Array, where: string): void {
  const size = typeof input === "string" ? byteLength(input) : byteLength(decodeSource(input));
  for (const [name, fn] of [
    ["config", () => parseConfig(input, "f.tf")],
    ["expression", () => parseExpression(input, "f.tf")],
    ["template", () => parseTemplate(input, "f.tf")],
    ["json", () => parseJSONConfig(input, "f.tf.json")],
  ] as const) {
    const r = fn();
    checkTree(r.diagnostics, size, `${where} ${name}`, new Set());
    checkTree(r.result, size, `${where} ${name}`, new Set());
    // Rendering any of these diagnostics against the source must work too.
    const text = decodeSource(input);
    const sources = new Map([["f.tf", { source: text }], ["f.tf.json", { source: text }]]);
    for (const d of r.diagnostics.slice(0, 3)) renderDiagnostic(d, sources);
  }
}

describe("parser robustness (fuzz)", () => {
  it("never throws on random bytes and token soup", () => {
    const rand = prng(20261122);
    for (let i = 0; i < 1500; i++) {
      const len = Math.floor(rand() * 120);
      if (i % 2 === 0) {
        const bytes = new Uint8Array(len);
        for (let k = 0; k < len; k++) bytes[k] = rand() < 0.7 ? 32 + Math.floor(rand() * 95) : Math.floor(rand() * 256);
        expect(() => check(bytes, `bytes#${i}`)).not.toThrow();
      } else {
        const parts: string[] = [];
        for (let k = 0; k < len / 3; k++) parts.push(PIECES[Math.floor(rand() * PIECES.length)] as string);
        const s = parts.join("");
        expect(() => check(s, `soup#${i}: ${JSON.stringify(s)}`)).not.toThrow();
      }
    }
  });

  it("never throws on mutated real-world configurations", () => {
    const files = tfFiles(REALWORLD);
    expect(files.length).toBeGreaterThan(0);
    const rand = prng(7);
    for (let i = 0; i < 1500; i++) {
      const file = files[Math.floor(rand() * files.length)] as string;
      let s = readFileSync(file, "utf8");
      if (s.length > 6000) {
        const from = Math.floor(rand() * (s.length - 6000));
        s = s.slice(from, from + 6000);
      }
      const edits = 1 + Math.floor(rand() * 4);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(rand() * (s.length + 1));
        const op = rand();
        if (op < 0.35) s = s.slice(0, at) + s.slice(at + 1 + Math.floor(rand() * 8));
        else if (op < 0.8) s = s.slice(0, at) + (PIECES[Math.floor(rand() * PIECES.length)] as string) + s.slice(at);
        else {
          const from = Math.floor(rand() * s.length);
          s = s.slice(0, at) + s.slice(from, from + Math.floor(rand() * 40)) + s.slice(at);
        }
      }
      expect(() => check(s, `mutated ${path.basename(file)}#${i}`)).not.toThrow();
    }
  });
});
