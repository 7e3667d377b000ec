// `fmt`: canonical formatting of native-syntax configuration, byte for byte as `tofu fmt` /
// `terraform fmt` produce it (hclwrite's layout plus terraform's own rewrites). Browser-safe:
// it works on source text and returns text.
import { hasErrors, parseConfig, type Body, type Diagnostic } from "../hcl/index.js";
import { isBadByte } from "../hcl/source.js";
import { layoutTokens } from "./layout.js";
import { collectEdits } from "./normalize.js";
import { lexForFormat, writeTokens, type FmtToken } from "./tokens.js";

export { unifiedDiff } from "./diff.js";

export interface FormatResult {
  /** The formatted text; undefined when the source has syntax errors (nothing is changed then). */
  formatted: string | undefined;
  /** The parser's diagnostics; formatting goes ahead only without errors, as tofu's does. */
  diagnostics: Diagnostic[];
  /** The decoded source and its syntax tree, for rendering the diagnostics with their context. */
  source: string;
  body: Body;
}

/** Formats one file of native syntax (`.tf`, `.tofu`, `.tfvars`, `.tftest.hcl`, ...). */
export function formatConfig(source: string | Uint8Array, filename: string): FormatResult {
  const parsed = parseConfig(source, filename);
  const { source: text, body } = parsed.result;
  if (hasErrors(parsed.diagnostics)) return { formatted: undefined, diagnostics: parsed.diagnostics, source: text, body };
  const src = lexForFormat(text);
  const edits = collectEdits(body, src);
  let tokens: FmtToken[] = src.tokens;
  if (edits.length > 0) {
    tokens = [];
    let at = 0;
    for (const e of edits) {
      for (let i = at; i < e.from; i++) tokens.push(src.tokens[i] as FmtToken);
      for (const t of e.tokens) tokens.push(t);
      at = e.to;
    }
    for (let i = at; i < src.tokens.length; i++) tokens.push(src.tokens[i] as FmtToken);
  }
  layoutTokens(tokens);
  return { formatted: writeTokens(tokens), diagnostics: parsed.diagnostics, source: text, body };
}

/** The file name endings `tofu fmt` formats (JSON files are left alone). */
export const FORMATTED_EXTENSIONS: readonly string[] = [".tf", ".tofu", ".tfvars", ".tftest.hcl", ".tofutest.hcl"];

export function isFormattedFile(name: string): boolean {
  return FORMATTED_EXTENSIONS.some((ext) => name.endsWith(ext));
}

/**
 * UTF-8 bytes of formatted text. Bytes that were not valid UTF-8 in the source (kept by the
 * parser as U+DC80..U+DCFF, and only possible inside comments of a file that parses) are written
 * back unchanged.
 */
export function encodeFormatted(text: string): Uint8Array {
  if (!/[\udc80-\udcff]/.test(text)) return encoder.encode(text);
  const parts: Uint8Array[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    if (!isBadByte(text, i)) continue;
    parts.push(encoder.encode(text.slice(from, i)), Uint8Array.of(text.charCodeAt(i) - 0xdc00));
    from = i + 1;
  }
  parts.push(encoder.encode(text.slice(from)));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const encoder = new TextEncoder();
