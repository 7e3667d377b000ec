// Deterministic "unformatting" of real configurations for the differential test: the spaces
// between tokens are re-drawn at random (indentation, alignment, spaces around operators and
// brackets, trailing whitespace), leaving the tokens themselves alone, so the result still parses
// and `terraform fmt` has real work to do. Heredoc bodies and strings are never touched.
import { scanTokens, type TokenType } from "../../hcl/index.js";

/** mulberry32: a small seeded generator, so the recorder and the test build the same inputs. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function seedOf(name: string): number {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  return h >>> 0;
}

// Tokens next to which a gap may be opened where there was none, without changing the tokens.
const OPEN_AFTER = new Set<TokenType>(["OParen", "OBrack", "Comma", "Equal", "Colon", "Question", "FatArrow"]);
const OPEN_BEFORE = new Set<TokenType>(["CParen", "CBrack", "Comma", "Equal", "Question"]);
// Tokens next to which an existing gap may be closed.
const CLOSE_AROUND = new Set<TokenType>(["Equal", "Comma", "OParen", "CParen", "OBrack", "CBrack", "Colon"]);
const OPERATOR_CHARS = /[=<>!&|*\/+\-%.:?~]/;
const WORD_CHARS = /[\p{L}\p{N}_\-]/u;

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)] as T;
}

/** The source with its inter-token whitespace redrawn; `crlf` also turns every newline into CRLF. */
export function unformat(src: string, seed: number, crlf = false): string {
  const r = rng(seed);
  const tokens = scanTokens(src, "", { line: 1, column: 1, byte: 0 }, "normal");
  const out: string[] = [];
  let last = 0;
  let prevType: TokenType | undefined;
  for (const t of tokens) {
    const gap = src.slice(last, t.start);
    const text = src.slice(t.start, t.end);
    let g = gap;
    const inMain = /^[ \t]*$/.test(gap);
    if (inMain && (prevType === undefined || prevType === "Newline" || (prevType === "Comment" && out[out.length - 1]?.endsWith("\n")))) {
      // Indentation.
      if (t.type !== "Newline" && t.type !== "EOF") g = pick(r, ["", " ", "    ", "\t", "  \t", "        ", "   "]);
    } else if (inMain && t.type === "Newline") {
      g = pick(r, ["", "", " ", "   ", "\t"]);
    } else if (inMain && gap.length > 0 && t.type !== "EOF") {
      const prevText = out[out.length - 1] ?? "";
      const a = prevText.slice(-1);
      const b = text.slice(0, 1);
      const canClose =
        prevType !== undefined &&
        (CLOSE_AROUND.has(prevType) || CLOSE_AROUND.has(t.type)) &&
        !(OPERATOR_CHARS.test(a) && OPERATOR_CHARS.test(b)) &&
        !(WORD_CHARS.test(a) && WORD_CHARS.test(b));
      g = canClose && r() < 0.3 ? "" : pick(r, [" ", " ", "  ", "\t", "     "]);
    } else if (gap === "" && prevType !== undefined && (OPEN_AFTER.has(prevType) || OPEN_BEFORE.has(t.type)) && r() < 0.25) {
      g = pick(r, [" ", "  "]);
    }
    out.push(g, text);
    last = t.end;
    prevType = t.type;
  }
  const s = out.join("");
  return crlf ? s.replace(/\r?\n/g, "\r\n") : s;
}
