// Rendering diagnostics as OpenTofu does: the `-json` diagnostic object (its jsonentities
// Diagnostic: address, range, snippet with context, code, start line and highlight offsets) and the
// human form built from it (`Error: <summary>`, `  with <address>,`, `  on <file> line <n>, in <block>:`, numbered source
// lines with the subject underlined, then the detail), with or without the left-hand rule.
import type { Body } from "./ast.js";
import type { Diagnostic, DiagnosticExpressionValue, DiagnosticFunctionCall } from "./diagnostics.js";
import { parseJSONConfig, type JSONValue } from "./json/parser.js";
import { parseConfig } from "./parse.js";
import type { Pos, Range } from "./pos.js";

export interface JSONDiagnosticPos {
  line: number;
  column: number;
  byte: number;
}

export interface JSONDiagnostic {
  severity: "error" | "warning";
  summary: string;
  detail: string;
  address?: string;
  range?: { filename: string; start: JSONDiagnosticPos; end: JSONDiagnosticPos };
  snippet?: {
    context: string | null;
    code: string;
    start_line: number;
    highlight_start_offset: number;
    highlight_end_offset: number;
    values: DiagnosticExpressionValue[];
    function_call?: DiagnosticFunctionCall;
  };
}

/** A source file the renderer may quote. `body` (the parsed native body) gives the "in <block>" context. */
export interface RenderSource {
  source: string;
  body?: Body;
}

export type RenderSources = ReadonlyMap<string, RenderSource>;

/** UTF-8 bytes of decoded source text, mapping escaped invalid bytes back to themselves. */
function utf8(s: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else if (c >= 0xdc80 && c <= 0xdcff) out.push(c - 0xdc00);
    else {
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          c = (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
          i++;
          out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
          continue;
        }
      }
      out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    }
  }
  return Uint8Array.from(out);
}

const decoder = new TextDecoder("utf-8");

function isEmpty(r: Range): boolean {
  return r.start.byte === r.end.byte;
}

function containsOffset(r: { start: number; end: number }, o: number): boolean {
  return o >= r.start && o < r.end;
}

/** HCL's Range.Overlaps, on byte offsets. */
function overlaps(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  if (a.start === a.end || b.start === b.end) return false;
  return containsOffset(a, b.start) || containsOffset(a, b.end) || containsOffset(b, a.start) || containsOffset(b, a.end);
}

function bumpEnd(r: Range): Range {
  const end: Pos = { line: r.end.line, column: r.end.column + 1, byte: r.end.byte + 1 };
  return { filename: r.filename, start: r.start, end };
}

/** hcled.ContextString for native files: the header of the top-level block containing the offset. */
function contextString(body: Body, offset: number): string | null {
  for (const block of body.blocks) {
    if (offset >= block.range.start.byte && offset < block.range.end.byte) {
      if (block.labels.length === 0) return block.type;
      return `${block.type} ${block.labels.map((l) => JSON.stringify(l)).join(" ")}`;
    }
  }
  return null;
}

/** hcled.ContextString for JSON files: the path of nested objects and arrays containing the offset. */
function jsonContextString(root: JSONValue, offset: number): string | null {
  const steps: string[] = [];
  let v: JSONValue | undefined = root;
  while (v) {
    let next: JSONValue | undefined;
    if (v.kind === "JSONObject") {
      for (const a of v.attrs) {
        const av = a.value;
        if ((av.kind === "JSONObject" || av.kind === "JSONArray") && offset >= av.range.start.byte && offset < av.range.end.byte) {
          steps.push(`.${a.name}`);
          next = av;
          break;
        }
      }
    } else if (v.kind === "JSONArray") {
      v.values.forEach((el, i) => {
        if (!next && (el.kind === "JSONObject" || el.kind === "JSONArray") && offset >= el.range.start.byte && offset < el.range.end.byte) {
          steps.push(`[${i}]`);
          next = el;
        }
      });
    }
    v = next;
  }
  const ret = steps.join("");
  if (ret === "") return null;
  return ret.startsWith(".") ? ret.slice(1) : ret;
}

export function diagnosticToJSON(diag: Diagnostic, sources: RenderSources): JSONDiagnostic {
  const out: JSONDiagnostic = { severity: diag.severity, summary: diag.summary, detail: diag.detail };
  if (diag.address) out.address = diag.address;
  if (!diag.subject) return out;
  let highlight = diag.subject;
  let snippetRange = diag.context ?? highlight;
  // The snippet always covers the highlight (hcl.RangeOver).
  snippetRange = {
    filename: snippetRange.filename,
    start: snippetRange.start.byte <= highlight.start.byte ? snippetRange.start : highlight.start,
    end: snippetRange.end.byte >= highlight.end.byte ? snippetRange.end : highlight.end,
  };
  if (isEmpty(highlight)) highlight = bumpEnd(highlight);
  if (isEmpty(snippetRange)) snippetRange = bumpEnd(snippetRange);
  out.range = {
    filename: highlight.filename,
    start: { ...highlight.start },
    end: { ...highlight.end },
  };
  const file = sources.get(snippetRange.filename);
  if (!file) return out;
  const bytes = utf8(file.source);
  let context: string | null = null;
  if (snippetRange.filename.endsWith(".json")) {
    context = jsonContextString(parseJSONConfig(file.source, snippetRange.filename).result.root, highlight.start.byte - 1);
  } else {
    const body = file.body ?? parseConfig(file.source, snippetRange.filename).result.body;
    context = contextString(body, highlight.start.byte - 1);
  }
  // Lines as bufio.ScanLines yields them: without the newline and without a trailing "\r".
  const chunks: Uint8Array[] = [];
  let codeStart = -1;
  let lineStart = 0;
  const snip = { start: snippetRange.start.byte, end: snippetRange.end.byte };
  const n = bytes.length;
  while (lineStart < n) {
    let nl = bytes.indexOf(10, lineStart);
    const next = nl < 0 ? n : nl + 1;
    if (nl < 0) nl = n;
    let lineEnd = nl;
    if (lineEnd > lineStart && bytes[lineEnd - 1] === 13) lineEnd--;
    if (overlaps({ start: lineStart, end: lineEnd }, snip)) {
      if (codeStart < 0) codeStart = lineStart;
      chunks.push(bytes.subarray(lineStart, lineEnd));
    }
    lineStart = next;
  }
  const parts: string[] = chunks.map((c) => decoder.decode(c));
  const code = parts.join("\n");
  const codeBytes = utf8(code).length;
  if (codeStart < 0) codeStart = 0;
  let start = highlight.start.byte - codeStart;
  let end = start + (highlight.end.byte - highlight.start.byte);
  start = Math.max(0, Math.min(start, codeBytes));
  end = Math.max(0, Math.min(end, codeBytes));
  out.snippet = {
    context,
    code,
    start_line: snippetRange.start.line,
    highlight_start_offset: start,
    highlight_end_offset: end,
    values: diag.expression?.values() ?? [],
  };
  const call = diag.expression?.functionCall();
  if (call) out.snippet.function_call = call;
  return out;
}

export interface RenderOptions {
  /** Terminal width for wrapping the detail; 0 (the default) disables wrapping. */
  width?: number;
  /** ANSI colours and underline, as on a terminal. */
  color?: boolean;
  /** The left-hand rule (╷ │ ╵) of tofu's default output; false gives the `-no-color` plain form without it. */
  rule?: boolean;
}

const ANSI: Record<string, string> = {
  bold: "\u001b[1m",
  red: "\u001b[31m",
  yellow: "\u001b[33m",
  underline: "\u001b[4m",
  dark_gray: "\u001b[90m",
  reset: "\u001b[0m",
};

function colorize(s: string, color: boolean): string {
  return s.replace(/\[(bold|red|yellow|underline|dark_gray|reset)\]/g, (_m, name: string) => (color ? (ANSI[name] ?? "") : ""));
}

/** go-wordwrap's WrapString: greedy wrapping at spaces; longer words stay whole. */
export function wrapString(s: string, width: number): string {
  if (width <= 0) return s;
  const words = s.split(" ");
  const lines: string[] = [];
  let cur = "";
  for (const w of words) {
    if (cur === "") cur = w;
    else if (cur.length + 1 + w.length <= width) cur += " " + w;
    else {
      lines.push(cur);
      cur = w;
    }
  }
  lines.push(cur);
  return lines.join("\n");
}

function sliceBytes(s: string, from: number, to: number): [string, string, string] {
  const b = utf8(s);
  return [decoder.decode(b.subarray(0, from)), decoder.decode(b.subarray(from, to)), decoder.decode(b.subarray(to))];
}

function snippetText(d: JSONDiagnostic, color: boolean): string {
  const lines: string[] = [];
  // Without a range the "with" line stands alone, not followed by a blank line (as tofu prints it).
  const withLine = d.address ? `  with ${d.address},\n` : "";
  if (!d.range) return withLine;
  if (!d.snippet) {
    lines.push(`  on ${d.range.filename} line ${d.range.start.line}:`, "  (source code not available)");
  } else {
    const s = d.snippet;
    const ctx = s.context !== null ? `, in ${s.context}` : "";
    lines.push(`  on ${d.range.filename} line ${d.range.start.line}${ctx}:`);
    const start = s.highlight_start_offset;
    let end = s.highlight_end_offset;
    if (end < start) end = start + 1;
    const [before, hl, after] = sliceBytes(s.code, start, end);
    const code = `${before}${colorize("[underline]", color)}${hl}${colorize("[reset]", color)}${after}`;
    code.split("\n").forEach((line, i) => lines.push(`${String(s.start_line + i).padStart(4, " ")}: ${line}`));
    lines.push(...valueLines(s, color));
  }
  return withLine + lines.join("\n") + "\n\n";
}

/**
 * The "├────" section under the snippet: the function being called (when its signature is known)
 * and the values the expression referred to. Only the fixed text is colourised, never the
 * traversals, so a "[bold]" in a key stays literal.
 */
function valueLines(s: NonNullable<JSONDiagnostic["snippet"]>, color: boolean): string[] {
  const sig = s.function_call?.signature;
  if (s.values.length === 0 && !sig) return [];
  const bar = colorize("    [dark_gray]│[reset] ", color);
  const out = [colorize("    [dark_gray]├────────────────[reset]", color)];
  if (s.function_call && sig) {
    const names = sig.params.map((p) => p.name);
    if (sig.variadic_param) names.push(`${sig.variadic_param.name}...`);
    out.push(`${bar}while calling ${colorize("[bold]", color)}${s.function_call.called_as}${colorize("[reset]", color)}(${names.join(", ")})`);
  }
  const values = [...s.values].sort((a, b) => compareBytes(a.traversal, b.traversal));
  for (const v of values) out.push(`${bar}${colorize("[bold]", color)}${v.traversal}${colorize("[reset]", color)} ${v.statement}`);
  return out;
}

/** Go's string order (by UTF-8 bytes), which differs from UTF-16 order only above U+FFFF. */
function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length < b.length ? -1 : 1;
}

/** The human-readable form of one diagnostic, as `tofu` prints it. */
export function renderDiagnostic(diag: Diagnostic, sources: RenderSources, opts: RenderOptions = {}): string {
  const color = opts.color ?? false;
  const rule = opts.rule ?? true;
  const width = opts.width ?? 0;
  const d = diagnosticToJSON(diag, sources);
  const sev = d.severity === "error" ? "red" : "yellow";
  const label = d.severity === "error" ? "Error: " : "Warning: ";
  let buf = "";
  if (rule) buf += colorize(`[bold][${sev}]${label}[reset]`, color) + colorize(`[bold]${d.summary}[reset]\n\n`, color);
  else buf += `\n${label}${d.summary}\n\n`;
  buf += snippetText(d, color);
  if (d.detail !== "") {
    const paraWidth = rule ? width - 3 : width - 1;
    for (const line of d.detail.split("\n")) {
      buf += (paraWidth > 0 && !line.startsWith(" ") ? wrapString(line, paraWidth) : line) + "\n";
    }
  }
  if (!rule) return buf;
  const prefix = colorize(`[${sev}]│[reset] `, color);
  const out: string[] = [colorize(`[${sev}]╷[reset]`, color)];
  const body = buf.endsWith("\n") ? buf.slice(0, -1) : buf;
  for (const line of body.split("\n")) out.push(line === "" ? prefix.trimEnd() : prefix + line);
  out.push(colorize(`[${sev}]╵[reset]`, color));
  return out.join("\n") + "\n";
}
