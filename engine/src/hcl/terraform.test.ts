// Differential check against the real CLI: the syntax diagnostics `terraform validate -json`
// reports for every case in testdata/syntax-corpus.json (cached in testdata/terraform-diags.json by
// testdata/terraform-diags.mjs) must equal ours: severity, summary, detail and range, as rendered
// in the -json form, including the snippet (context, code, highlight offsets). Terraform's own decoding diagnostics (not the parser's) are left out.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { parseJSONConfig } from "./json/parser.js";
import { parseConfig } from "./parse.js";
import { diagnosticToJSON } from "./render.js";

const dir = path.join(import.meta.dirname, "testdata");

interface Case {
  name: string;
  /** main.tf unless given; a .tf.json name selects the JSON syntax. */
  file?: string;
  src?: string;
  bytes?: number[];
}

interface TFDiag {
  severity: string;
  summary: string;
  detail: string;
  range: { start: { line: number; column: number; byte: number }; end: { line: number; column: number; byte: number } } | null;
  snippet?: unknown;
}

/** Reported by Terraform's configuration decoder, not by HCL's parser. */
const DECODER_SUMMARIES = new Set(["Unsupported argument", "Unsupported block type", "Invalid variable name", "Incorrect JSON value type"]);

const fmt = (d: TFDiag) =>
  `${d.severity} | ${d.summary} | ${d.detail} | ${d.range ? `${d.range.start.line}:${d.range.start.column}(${d.range.start.byte})-${d.range.end.line}:${d.range.end.column}(${d.range.end.byte})` : ""} | ${JSON.stringify(d.snippet ?? null)}`;

it("reports the same syntax diagnostics as terraform", () => {
  const corpus = JSON.parse(readFileSync(path.join(dir, "syntax-corpus.json"), "utf8")) as Case[];
  const answers = JSON.parse(readFileSync(path.join(dir, "terraform-diags.json"), "utf8")) as { terraform_version: string; cases: Record<string, TFDiag[]> };
  const mismatches: string[] = [];
  for (const c of corpus) {
    const src = c.bytes ? Uint8Array.from(c.bytes) : (c.src ?? "");
    const file = c.file ?? "main.tf";
    const r = file.endsWith(".json") ? parseJSONConfig(src, file) : parseConfig(src, file);
    const sources = new Map([[file, { source: r.result.source }]]);
    const mine = r.diagnostics.map((d) => {
      const j = diagnosticToJSON(d, sources);
      return fmt({ severity: j.severity, summary: j.summary, detail: j.detail, range: j.range ?? null, snippet: j.snippet ?? null });
    });
    const theirs = (answers.cases[c.name] ?? []).filter((d) => !DECODER_SUMMARIES.has(d.summary)).map(fmt);
    if (JSON.stringify(mine) !== JSON.stringify(theirs)) mismatches.push(`${c.name}:\n  ours:      ${mine.join("\n             ")}\n  terraform: ${theirs.join("\n             ")}`);
  }
  console.log(`terraform ${answers.terraform_version} syntax diagnostics: ${corpus.length - mismatches.length} of ${corpus.length} cases match`);
  expect(mismatches).toEqual([]);
});

/** Every summary HCL's parsers report (the rest come from Terraform itself). */
const PARSER_SUMMARIES = new Set([
  "Argument or block definition required", "Argument definition required", "Attribute redefined",
  "Extra characters after expression", "Extra characters after interpolation expression", "Invalid 'for' directive",
  "Invalid 'for' expression", "Invalid argument name", "Invalid attribute name", "Invalid block definition",
  "Invalid character", "Invalid character encoding", "Invalid escape sequence", "Invalid expression",
  "Invalid legacy index syntax", "Invalid multi-line string", "Invalid number literal",
  "Invalid single-argument block definition", "Invalid string literal", "Invalid template control keyword",
  "Invalid template directive", "Missing argument separator", "Missing attribute separator", "Missing attribute value",
  "Missing close bracket on index", "Missing close bracket on splat index", "Missing closing parenthesis",
  "Missing expression", "Missing false expression in conditional", "Missing function name", "Missing item separator",
  "Missing key/value separator", "Missing newline after argument", "Missing newline after block definition",
  "Missing open parenthesis", "Nested splat expression not allowed", "Unbalanced parentheses",
  "Unclosed configuration block", "Unclosed configuration body", "Unclosed template interpolation sequence",
  "Unexpected comma after argument", "Unexpected end of template", "Unsupported operator", "Unterminated function call",
  "Unterminated object constructor expression", "Unterminated string literal", "Unterminated template string",
  "Unterminated tuple constructor expression",
  // JSON syntax
  "Missing JSON value", "Missing array element value", "Missing value", "Invalid start of value",
  "Invalid object property name", "Missing object value", "Missing property value colon", "Trailing comma in object",
  "Unclosed object", "Mismatched braces", "Missing attribute seperator comma", "Trailing comma in array",
  "Invalid array value", "Mismatched brackets", "Invalid JSON number", "Invalid JSON string", "Invalid JSON keyword",
  "Extraneous data after value", "Root value must be object",
]);
const isParserSummary = (s: string) => PARSER_SUMMARIES.has(s) || /^Extra characters in \w+ marker$/.test(s) || /^Unexpected (if|else|endif|for|endfor) directive$/.test(s);

it("reports the same syntax diagnostics as terraform on mutated real-world files and token soups", () => {
  const corpus = JSON.parse(readFileSync(path.join(dir, "mutated-corpus.json"), "utf8")) as Case[];
  const answers = JSON.parse(readFileSync(path.join(dir, "terraform-mutated-diags.json"), "utf8")) as { terraform_version: string; cases: Record<string, TFDiag[]> };
  const mismatches: string[] = [];
  for (const c of corpus) {
    const file = c.file ?? "main.tf";
    const r = file.endsWith(".json") ? parseJSONConfig(c.src ?? "", file) : parseConfig(c.src ?? "", file);
    const sources = new Map([[file, { source: r.result.source }]]);
    const mine = r.diagnostics.map((d) => {
      const j = diagnosticToJSON(d, sources);
      return fmt({ severity: j.severity, summary: j.summary, detail: j.detail, range: j.range ?? null });
    });
    const theirs = (answers.cases[c.name] ?? []).filter((d) => isParserSummary(d.summary)).map(fmt);
    if (JSON.stringify(mine) !== JSON.stringify(theirs)) mismatches.push(`${c.name}:\n  ours:      ${mine.join("\n             ")}\n  terraform: ${theirs.join("\n             ")}`);
  }
  console.log(`terraform ${answers.terraform_version} on mutated real-world files and token soups: ${corpus.length - mismatches.length} of ${corpus.length} cases match`);
  expect(mismatches).toEqual([]);
});
