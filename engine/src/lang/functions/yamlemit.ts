// yamlencode's output, byte for byte as go-cty-yaml produces it. go-cty-yaml feeds events to
// its copy of the libyaml emitter (via go-yaml v2): strings requested double-quoted, or literal
// block style when they contain a newline; numbers, bools and null plain; collections in block
// style, empty ones in flow style. This module reproduces that emitter's decisions and layout —
// style selection from the scalar analysis, indentation state, simple-key checks, folding of long
// double-quoted lines at column 80, escapes, block scalar hints, and the "..." document end
// marker after a plain root scalar — for exactly those events.
import { compareStrings, type Value } from "../../values/index.js";

const BEST_INDENT = 2;
const BEST_WIDTH = 80;

type Style = "plain" | "single" | "double" | "literal";

interface Analysis {
  multiline: boolean;
  flowPlainAllowed: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

const isBreak = (c: number | undefined) => c === 0x0d || c === 0x0a || c === 0x85 || c === 0x2028 || c === 0x2029;
const isSpace = (c: number | undefined) => c === 0x20;
const isBlank = (c: number | undefined) => c === 0x20 || c === 0x09;
const isBlankz = (c: number | undefined) => c === undefined || c === 0 || isBlank(c) || isBreak(c);

/** libyaml's is_printable on a code point (it rejects every 4-byte UTF-8 sequence). */
function isPrintable(c: number): boolean {
  return c === 0x0a || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff);
}

function utf8Width(c: number): number {
  return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

/** yaml_emitter_analyze_scalar. */
function analyze(cps: readonly number[]): Analysis {
  if (cps.length === 0) {
    return { multiline: false, flowPlainAllowed: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  }
  let blockIndicators = false;
  let flowIndicators = false;
  let lineBreaks = false;
  let specialCharacters = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  const [c0, c1, c2] = cps;
  if (cps.length >= 3 && ((c0 === 0x2d && c1 === 0x2d && c2 === 0x2d) || (c0 === 0x2e && c1 === 0x2e && c2 === 0x2e))) {
    blockIndicators = true;
    flowIndicators = true;
  }
  let precededByWhitespace = true;
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i] as number;
    const followedByWhitespace = i + 1 >= cps.length || isBlank(cps[i + 1]);
    const ch = String.fromCodePoint(c);
    if (i === 0) {
      if ("#,[]{}&*!|>'\"%@`".includes(ch)) {
        flowIndicators = true;
        blockIndicators = true;
      } else if (ch === "?" || ch === ":") {
        flowIndicators = true;
        if (followedByWhitespace) blockIndicators = true;
      } else if (ch === "-" && followedByWhitespace) {
        flowIndicators = true;
        blockIndicators = true;
      }
    } else if (",?[]{}".includes(ch)) {
      flowIndicators = true;
    } else if (ch === ":") {
      flowIndicators = true;
      if (followedByWhitespace) blockIndicators = true;
    } else if (ch === "#" && precededByWhitespace) {
      flowIndicators = true;
      blockIndicators = true;
    }
    if (!isPrintable(c)) specialCharacters = true;
    if (isSpace(c)) {
      if (i === 0) leadingSpace = true;
      if (i === cps.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === cps.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlankz(c);
  }
  const a: Analysis = { multiline: lineBreaks, flowPlainAllowed: true, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: true };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) {
    a.flowPlainAllowed = false;
    a.blockPlainAllowed = false;
  }
  if (trailingSpace) a.blockAllowed = false;
  if (breakSpace) {
    a.flowPlainAllowed = false;
    a.blockPlainAllowed = false;
    a.singleQuotedAllowed = false;
  }
  if (spaceBreak || specialCharacters) {
    a.flowPlainAllowed = false;
    a.blockPlainAllowed = false;
    a.singleQuotedAllowed = false;
    a.blockAllowed = false;
  }
  if (lineBreaks) {
    a.flowPlainAllowed = false;
    a.blockPlainAllowed = false;
  }
  if (flowIndicators) a.flowPlainAllowed = false;
  if (blockIndicators) a.blockPlainAllowed = false;
  return a;
}

type Node = { kind: "scalar"; value: string; style: Style } | { kind: "seq"; items: Node[] } | { kind: "map"; entries: Array<[Node, Node]> };

class Emitter {
  out = "";
  private column = 0;
  private whitespace = true;
  private indention = true;
  private openEnded = false;
  private indent = -1;
  private readonly indents: number[] = [];
  private flowLevel = 0;
  private rootContext = false;
  private mappingContext = false;
  private simpleKeyContext = false;

  private put(s: string): void {
    this.out += s;
    this.column++;
  }

  private putBreak(): void {
    this.out += "\n";
    this.column = 0;
  }

  /** Writes a character that is a line break in the value. */
  private writeBreak(c: number): void {
    if (c === 0x0a) this.putBreak();
    else {
      this.out += String.fromCodePoint(c);
      this.column = 0;
    }
  }

  private writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    while (this.column < indent) this.put(" ");
    this.whitespace = true;
    this.indention = true;
  }

  private writeIndicator(ind: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(" ");
    for (const ch of ind) this.put(ch);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
    this.openEnded = false;
  }

  private increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? BEST_INDENT : 0;
    else if (!indentless) this.indent += BEST_INDENT;
  }

  private popIndent(): void {
    this.indent = this.indents.pop() ?? -1;
  }

  document(root: Node): string {
    this.emitNode(root, true, false, false, false);
    // Document end (implicit), then stream end.
    this.writeIndent();
    if (this.openEnded) {
      this.writeIndicator("...", true, false, false);
      this.writeIndent();
    }
    return this.out;
  }

  private emitNode(n: Node, root: boolean, _sequence: boolean, mapping: boolean, simpleKey: boolean): void {
    this.rootContext = root;
    this.mappingContext = mapping;
    this.simpleKeyContext = simpleKey;
    if (n.kind === "scalar") return this.emitScalar(n.value, n.style);
    const empty = n.kind === "seq" ? n.items.length === 0 : n.entries.length === 0;
    if (this.flowLevel > 0 || empty) {
      // Only empty collections are written in flow style here.
      const [open, close] = n.kind === "seq" ? ["[", "]"] : ["{", "}"];
      this.writeIndicator(open, true, true, false);
      this.increaseIndent(true, false);
      this.flowLevel++;
      this.flowLevel--;
      this.popIndent();
      this.writeIndicator(close, false, false, false);
      return;
    }
    if (n.kind === "seq") {
      this.increaseIndent(false, this.mappingContext && !this.indention);
      for (const item of n.items) {
        this.writeIndent();
        this.writeIndicator("-", true, false, true);
        this.emitNode(item, false, true, false, false);
      }
      this.popIndent();
      return;
    }
    this.increaseIndent(false, false);
    for (const [k, v] of n.entries) {
      this.writeIndent();
      if (this.checkSimpleKey(k)) {
        this.emitNode(k, false, false, true, true);
        this.writeIndicator(":", false, false, false);
      } else {
        this.writeIndicator("?", true, false, true);
        this.emitNode(k, false, false, true, false);
        this.writeIndent();
        this.writeIndicator(":", true, false, true);
      }
      this.emitNode(v, false, false, true, false);
    }
    this.popIndent();
  }

  private checkSimpleKey(k: Node): boolean {
    if (k.kind !== "scalar") return k.kind === "seq" ? k.items.length === 0 : k.entries.length === 0;
    const cps = [...k.value].map((c) => c.codePointAt(0) as number);
    if (analyze(cps).multiline) return false;
    return new TextEncoder().encode(k.value).length <= 128;
  }

  private emitScalar(value: string, requested: Style): void {
    const cps = [...value].map((c) => c.codePointAt(0) as number);
    const a = analyze(cps);
    let style = requested;
    if (this.simpleKeyContext && a.multiline) style = "double";
    if (style === "plain") {
      if ((this.flowLevel > 0 && !a.flowPlainAllowed) || (this.flowLevel === 0 && !a.blockPlainAllowed)) style = "single";
      if (cps.length === 0 && (this.flowLevel > 0 || this.simpleKeyContext)) style = "single";
    }
    if (style === "single" && !a.singleQuotedAllowed) style = "double";
    if (style === "literal" && (!a.blockAllowed || this.flowLevel > 0 || this.simpleKeyContext)) style = "double";
    this.increaseIndent(true, false);
    const allowBreaks = !this.simpleKeyContext;
    if (style === "plain") this.writePlain(cps, allowBreaks);
    else if (style === "single") this.writeSingleQuoted(cps, allowBreaks);
    else if (style === "double") this.writeDoubleQuoted(cps, allowBreaks);
    else this.writeLiteral(cps);
    this.popIndent();
  }

  private writePlain(cps: readonly number[], allowBreaks: boolean): void {
    if (!this.whitespace) this.put(" ");
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < cps.length; i++) {
      const c = cps[i] as number;
      if (isSpace(c)) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && !isSpace(cps[i + 1])) this.writeIndent();
        else this.put(" ");
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === 0x0a) this.putBreak();
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.put(String.fromCodePoint(c));
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.whitespace = false;
    this.indention = false;
    if (this.rootContext) this.openEnded = true;
  }

  private writeSingleQuoted(cps: readonly number[], allowBreaks: boolean): void {
    this.writeIndicator("'", true, false, false);
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < cps.length; i++) {
      const c = cps[i] as number;
      if (isSpace(c)) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < cps.length - 1 && !isSpace(cps[i + 1])) this.writeIndent();
        else this.put(" ");
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === 0x0a) this.putBreak();
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (c === 0x27) this.put("'");
        this.put(String.fromCodePoint(c));
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeDoubleQuoted(cps: readonly number[], allowBreaks: boolean): void {
    this.writeIndicator('"', true, false, false);
    let spaces = false;
    // Positions are compared in bytes, as libyaml does.
    const byteLen = cps.reduce((n, c) => n + utf8Width(c), 0);
    let bytePos = 0;
    for (let i = 0; i < cps.length; i++) {
      const c = cps[i] as number;
      const at = bytePos;
      bytePos += utf8Width(c);
      if (!isPrintable(c) || c === 0xfeff || isBreak(c) || c === 0x22 || c === 0x5c) {
        this.put("\\");
        const esc = ESCAPES.get(c);
        if (esc) this.put(esc);
        else {
          const [letter, width] = c <= 0xff ? ["x", 2] : c <= 0xffff ? ["u", 4] : ["U", 8];
          this.put(letter);
          for (const d of c.toString(16).toUpperCase().padStart(width, "0")) this.put(d);
        }
        spaces = false;
      } else if (isSpace(c)) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && at > 0 && at < byteLen - 1) {
          this.writeIndent();
          if (isSpace(cps[i + 1])) this.put("\\");
        } else {
          this.put(" ");
        }
        spaces = true;
      } else {
        this.put(String.fromCodePoint(c));
        spaces = false;
      }
    }
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeLiteral(cps: readonly number[]): void {
    this.writeIndicator("|", true, false, false);
    // Block scalar hints: an indentation indicator when the text starts with a space or break,
    // and a chomping indicator from how it ends.
    if (isSpace(cps[0]) || isBreak(cps[0])) this.writeIndicator(String(BEST_INDENT), false, false, false);
    this.openEnded = false;
    let chomp = "";
    const last = cps[cps.length - 1];
    if (cps.length === 0 || !isBreak(last)) chomp = "-";
    else if (cps.length === 1 || isBreak(cps[cps.length - 2])) chomp = "+";
    if (chomp) this.writeIndicator(chomp, false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (const c of cps) {
      if (isBreak(c)) {
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.put(String.fromCodePoint(c));
        this.indention = false;
        breaks = false;
      }
    }
  }
}

const ESCAPES = new Map<number, string>([
  [0x00, "0"],
  [0x07, "a"],
  [0x08, "b"],
  [0x09, "t"],
  [0x0a, "n"],
  [0x0b, "v"],
  [0x0c, "f"],
  [0x0d, "r"],
  [0x1b, "e"],
  [0x22, '"'],
  [0x5c, "\\"],
  [0x85, "N"],
  [0xa0, "_"],
  [0x2028, "L"],
  [0x2029, "P"],
]);

type ToNode = { ok: true; node: Node } | { ok: false; error: string };

function toNode(v: Value): ToNode {
  if (v.kind === "null") return { ok: true, node: { kind: "scalar", value: "null", style: "plain" } };
  if (v.kind === "unknown") return { ok: false, error: "cannot serialize unknown value as YAML" };
  switch (v.kind) {
    case "string":
      return { ok: true, node: { kind: "scalar", value: v.value, style: v.value.includes("\n") ? "literal" : "double" } };
    case "number": {
      const f = v.value;
      const text = f.isInf() ? (f.sign() > 0 ? "+.Inf" : "-.Inf") : f.text("f");
      return { ok: true, node: { kind: "scalar", value: text, style: "plain" } };
    }
    case "bool":
      return { ok: true, node: { kind: "scalar", value: v.value ? "true" : "false", style: "plain" } };
    case "list":
    case "set":
    case "tuple": {
      const items: Node[] = [];
      for (const e of v.elements) {
        const r = toNode(e);
        if (!r.ok) return r;
        items.push(r.node);
      }
      return { ok: true, node: { kind: "seq", items } };
    }
    case "map":
    case "object": {
      const entries: Array<[Node, Node]> = [];
      for (const k of [...v.attrs.keys()].sort(compareStrings)) {
        const r = toNode(v.attrs.get(k) as Value);
        if (!r.ok) return r;
        entries.push([{ kind: "scalar", value: k, style: k.includes("\n") ? "literal" : "double" }, r.node]);
      }
      return { ok: true, node: { kind: "map", entries } };
    }
  }
}

/** The YAML text go-cty-yaml's Marshal produces for a value (marks already removed). */
export function yamlEncode(v: Value): { ok: true; value: string } | { ok: false; error: string } {
  const r = toNode(v);
  if (!r.ok) return r;
  return { ok: true, value: new Emitter().document(r.node) };
}
