// Canonical whitespace, as hclwrite's format does it: a pass over lines of tokens that sets the
// indentation from bracket nesting, the spaces between tokens from the pair they separate, and
// then aligns the `=` of consecutive one-line attributes and the comments that end lines.
// Only `spaces` changes; token text is never touched, so heredoc bodies and strings survive.
import type { FmtToken, FmtTokenType } from "./tokens.js";

const NIL: FmtToken = { type: "Nil", text: "", spaces: 0 };

/**
 * A line split into hclwrite's cells, as token index ranges [start, end): `lead` (always),
 * `assign` (from a `=` whose right-hand side closes on the line) and `comment` (a trailing line
 * comment). A missing cell has start -1.
 */
interface Line {
  leadStart: number;
  leadEnd: number;
  assignStart: number;
  assignEnd: number;
  comment: number;
}

function bracketChange(type: FmtTokenType): number {
  switch (type) {
    case "OBrace":
    case "OBrack":
    case "OParen":
    case "TemplateControl":
    case "TemplateInterp":
      return 1;
    case "CBrace":
    case "CBrack":
    case "CParen":
    case "TemplateSeqEnd":
      return -1;
    default:
      return 0;
  }
}

/** Newline tokens, and line comments, which carry their own newline. */
function endsLine(t: FmtToken): boolean {
  return t.type === "Newline" || (t.type === "Comment" && t.text.endsWith("\n"));
}

function splitLines(tokens: readonly FmtToken[]): Line[] {
  const lines: Line[] = [];
  let start = 0;
  let i = 0;
  for (; i < tokens.length; i++) {
    const t = tokens[i] as FmtToken;
    if (t.type === "EOF") break;
    if (endsLine(t)) {
      lines.push({ leadStart: start, leadEnd: i + 1, assignStart: -1, assignEnd: -1, comment: -1 });
      start = i + 1;
    }
  }
  lines.push({ leadStart: start, leadEnd: i, assignStart: -1, assignEnd: -1, comment: -1 });

  for (const line of lines) {
    if (line.leadEnd === line.leadStart) continue;
    if (line.leadEnd - line.leadStart > 1 && (tokens[line.leadEnd - 1] as FmtToken).type === "Comment") {
      line.comment = line.leadEnd - 1;
      line.leadEnd--;
    }
    for (let k = line.leadStart + 1; k < line.leadEnd; k++) {
      if ((tokens[k] as FmtToken).type !== "Equal") continue;
      // Only a right-hand side that closes on this line joins an alignment column.
      let net = 0;
      for (let j = k; j < line.leadEnd; j++) net += bracketChange((tokens[j] as FmtToken).type);
      if (net === 0) {
        line.assignStart = k;
        line.assignEnd = line.leadEnd;
        line.leadEnd = k;
      }
      break;
    }
  }
  return lines;
}

function formatIndent(tokens: readonly FmtToken[], lines: readonly Line[]): void {
  // How many openers each indent level stands for: a line that opens several brackets indents
  // once, and closing them all dedents once.
  const indents: number[] = [];
  for (const line of lines) {
    if (line.leadEnd === line.leadStart) continue;
    const first = tokens[line.leadStart] as FmtToken;
    if (first.type === "Newline") {
      first.spaces = 0;
      continue;
    }
    let net = 0;
    for (let k = line.leadStart; k < line.leadEnd; k++) {
      const t = tokens[k] as FmtToken;
      net += bracketChange(t.type);
      if (t.type === "OHeredoc") break;
    }
    if (line.assignStart >= 0) {
      for (let k = line.assignStart; k < line.assignEnd; k++) net += bracketChange((tokens[k] as FmtToken).type);
    }
    if (net > 0) {
      first.spaces = 2 * indents.length;
      indents.push(net);
      continue;
    }
    if (net < 0) {
      let closed = -net;
      while (closed > 0 && indents.length > 0) {
        const top = indents[indents.length - 1] as number;
        if (closed > top) {
          closed -= top;
          indents.pop();
        } else if (closed < top) {
          indents[indents.length - 1] = top - closed;
          closed = 0;
        } else {
          indents.pop();
          closed = 0;
        }
      }
    }
    first.spaces = 2 * indents.length;
  }
}

/** Whether `subject` is followed by a space, given its neighbours (hclwrite's spaceAfterToken). */
function spaceAfter(subject: FmtToken, before: FmtToken, after: FmtToken): boolean {
  const s = subject.type;
  const a = after.type;
  if (a === "Newline" || a === "Nil") return false;
  if (s === "Ident" && a === "OParen") return false;
  if ((s === "Ident" && a === "DoubleColon") || (s === "DoubleColon" && a === "Ident")) return false;
  if (s === "Dot" || a === "Dot") return false;
  if (a === "Comma" || a === "Ellipsis") return false;
  if (s === "Comma") return true;
  if (s === "QuotedLit" || s === "StringLit" || s === "OQuote" || s === "OHeredoc") return false;
  if (a === "QuotedLit" || a === "StringLit" || a === "CQuote" || a === "CHeredoc") return false;
  // `in` after an identifier is the keyword of a `for`: keep `in [x]` apart.
  if (s === "Ident" && subject.text === "in" && before.type === "Ident") return true;
  if (a === "OBrack" && (s === "Ident" || s === "NumberLit" || bracketChange(s) < 0)) return false;
  if (s === "Bang") return false;
  if (s === "Minus") {
    // Negation when what comes before cannot end an operand.
    switch (before.type) {
      case "Nil":
      case "OParen":
      case "OBrace":
      case "OBrack":
      case "Equal":
      case "Colon":
      case "Comma":
      case "Question":
      case "Plus":
      case "Star":
      case "Slash":
      case "Percent":
      case "Minus":
      case "EqualOp":
      case "NotEqual":
      case "GreaterThan":
      case "GreaterThanEq":
      case "LessThan":
      case "LessThanEq":
      case "And":
      case "Or":
      case "Bang":
        return false;
      default:
        return true;
    }
  }
  if (s === "OBrace" || a === "CBrace") return !(s === "OBrace" && a === "CBrace");
  if ((s === "TemplateInterp" || s === "TemplateControl") && a === "OBrace") return true;
  if (s === "CBrace" && a === "TemplateSeqEnd") return true;
  if (s === "TemplateSeqEnd" && (a === "TemplateInterp" || a === "TemplateControl")) return false;
  if (bracketChange(s) > 0) return false;
  if (bracketChange(a) < 0) return false;
  return true;
}

function spaceCell(tokens: readonly FmtToken[], start: number, end: number): void {
  for (let k = start; k < end - 1; k++) {
    const before = k > start ? (tokens[k - 1] as FmtToken) : NIL;
    const after = tokens[k + 1] as FmtToken;
    after.spaces = spaceAfter(tokens[k] as FmtToken, before, after) ? 1 : 0;
  }
}

function formatSpaces(tokens: readonly FmtToken[], lines: readonly Line[]): void {
  for (const line of lines) {
    spaceCell(tokens, line.leadStart, line.leadEnd);
    if (line.assignStart >= 0) {
      (tokens[line.assignStart] as FmtToken).spaces = 1;
      spaceCell(tokens, line.assignStart, line.assignEnd);
    }
  }
}

// Made on first use: ICU's segmenter costs ~8 ms to set up, and most commands never format.
let segmenter: Intl.Segmenter | undefined;

function textColumns(text: string): number {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0x80) {
      let n = 0;
      segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
      for (const _ of segmenter.segment(text)) n++;
      return n;
    }
  }
  return text.length;
}

/** Display width of a token range: grapheme clusters plus the spaces before each token. */
function columns(tokens: readonly FmtToken[], start: number, end: number): number {
  let n = 0;
  for (let k = start; k < end; k++) {
    const t = tokens[k] as FmtToken;
    n += t.spaces + textColumns(t.text);
  }
  return n;
}

function formatCells(tokens: readonly FmtToken[], lines: readonly Line[]): void {
  // `=` first, since moving it moves the comments after it.
  alignChains(
    lines,
    (l) => l.assignStart >= 0,
    (l) => columns(tokens, l.leadStart, l.leadEnd),
    (l, spaces) => {
      (tokens[l.assignStart] as FmtToken).spaces = spaces;
    },
  );
  alignChains(
    lines,
    (l) => l.comment >= 0,
    (l) => columns(tokens, l.leadStart, l.leadEnd) + (l.assignStart >= 0 ? columns(tokens, l.assignStart, l.assignEnd) : 0),
    (l, spaces) => {
      (tokens[l.comment] as FmtToken).spaces = spaces;
    },
  );
}

/** Aligns the cell of each run of consecutive lines that have it, one space after the widest prefix. */
function alignChains(
  lines: readonly Line[],
  has: (l: Line) => boolean,
  width: (l: Line) => number,
  set: (l: Line, spaces: number) => void,
): void {
  let chainStart = -1;
  let max = 0;
  const widths: number[] = [];
  const close = (end: number) => {
    for (let k = chainStart; k < end; k++) set(lines[k] as Line, max - (widths[k - chainStart] as number) + 1);
    chainStart = -1;
    max = 0;
    widths.length = 0;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Line;
    if (!has(line)) {
      if (chainStart >= 0) close(i);
      continue;
    }
    if (chainStart < 0) chainStart = i;
    const w = width(line);
    widths.push(w);
    if (w > max) max = w;
  }
  if (chainStart >= 0) close(lines.length);
}

/** Sets every token's `spaces` to hclwrite's canonical layout, in place. */
export function layoutTokens(tokens: readonly FmtToken[]): void {
  if (tokens.length === 0) return;
  const lines = splitLines(tokens);
  formatIndent(tokens, lines);
  formatSpaces(tokens, lines);
  formatCells(tokens, lines);
}
