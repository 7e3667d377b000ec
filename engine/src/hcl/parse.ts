// The public entry points of the native-syntax parser: whole configuration files, standalone
// expressions and standalone templates. Each returns its result plus diagnostics and never throws.
import type { Expression, File } from "./ast.js";
import { errorDiag, type Diagnostic } from "./diagnostics.js";
import { Parser, templateResult } from "./parser.js";
import type { Pos } from "./pos.js";
import { scanStream, tokenTypeCode, type ScanMode, type TokenStream, type TokenType } from "./scanner.js";
import { decodeSource } from "./source.js";
import { parseTemplateParts } from "./template.js";

const START: Pos = { line: 1, column: 1, byte: 0 };

export interface ParseResult<T> {
  result: T;
  diagnostics: Diagnostic[];
}

/**
 * hclsyntax's checkInvalidTokens on `src`: the characters that never belong in HCL source, for
 * parsers of other grammars over HCL tokens (traversals in addrs) to report as this parser does.
 */
export function invalidTokenDiagnostics(src: string, filename: string, start: Pos, mode: ScanMode): Diagnostic[] {
  return checkInvalidTokens(scanStream(src, filename, start, mode));
}

/** Scans and reports tokens that never belong in HCL source (hclsyntax's checkInvalidTokens). */
export function lex(src: string, filename: string, start: Pos, mode: ScanMode): { tokens: TokenStream; diagnostics: Diagnostic[] } {
  const tokens = scanStream(src, filename, start, mode);
  return { tokens, diagnostics: checkInvalidTokens(tokens) };
}

/** Token type codes checkInvalidTokens reports; the others are skipped without making a token. */
const REPORTED = new Uint8Array(64);
for (const t of ["BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot", "Backtick", "Apostrophe", "Semicolon", "BadUTF8", "QuotedNewline", "Invalid"] as TokenType[]) {
  REPORTED[tokenTypeCode(t)] = 1;
}

function checkInvalidTokens(stream: TokenStream): Diagnostic[] {
  const diags: Diagnostic[] = [];
  if (!stream.hasInvalid) return diags;
  let toldBitwise = 0;
  let toldBacktick = 0;
  let toldApostrophe = 0;
  let toldSemicolon = 0;
  let toldBadUTF8 = 0;
  const types = stream.types;
  const count = stream.count;
  for (let i = 0; i < count; i++) {
    if (REPORTED[types[i] as number] === 0) continue;
    const tok = stream.token(i);
    switch (tok.type) {
      case "BitwiseAnd":
      case "BitwiseOr":
      case "BitwiseXor":
      case "BitwiseNot":
        if (toldBitwise < 4) {
          const suggestion =
            tok.type === "BitwiseAnd"
              ? ' Did you mean boolean AND ("&&")?'
              : tok.type === "BitwiseOr"
                ? ' Did you mean boolean OR ("||")?'
                : tok.type === "BitwiseNot"
                  ? ' Did you mean boolean NOT ("!")?'
                  : "";
          diags.push(errorDiag("Unsupported operator", `Bitwise operators are not supported.${suggestion}`, tok.range));
          toldBitwise++;
        }
        break;
      case "Backtick":
        // Report every other backtick, so a backtick-quoted string is reported once.
        if (toldBacktick % 2 === 0) {
          diags.push(
            errorDiag("Invalid character", 'The "`" character is not valid. To create a multi-line string, use the "heredoc" syntax, like "<<EOT".', tok.range),
          );
        }
        if (toldBacktick <= 2) toldBacktick++;
        break;
      case "Apostrophe":
        if (toldApostrophe % 2 === 0) {
          diags.push(errorDiag("Invalid character", 'Single quotes are not valid. Use double quotes (") to enclose strings.', tok.range));
        }
        if (toldApostrophe <= 2) toldApostrophe++;
        break;
      case "Semicolon":
        if (toldSemicolon < 1) {
          diags.push(
            errorDiag(
              "Invalid character",
              'The ";" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values.',
              tok.range,
            ),
          );
          toldSemicolon++;
        }
        break;
      case "BadUTF8":
        if (toldBadUTF8 < 1) {
          diags.push(
            errorDiag("Invalid character encoding", "All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected in your editor.", tok.range),
          );
          toldBadUTF8++;
        }
        break;
      case "QuotedNewline":
        diags.push(
          errorDiag(
            "Invalid multi-line string",
            'Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the "heredoc" multi-line template syntax.',
            tok.range,
          ),
        );
        break;
      case "Invalid": {
        // Curly quotes get their own advice: they come from pasting code out of documents.
        const ch = stream.src.slice(tok.start, tok.end);
        diags.push(
          errorDiag(
            "Invalid character",
            ch === "\u201c" || ch === "\u201d"
              ? '"Curly quotes" are not valid here. These can sometimes be inadvertently introduced when sharing code via documents or discussion forums. It might help to replace the character with a "straight quote".'
              : "This character is not used within the language.",
            tok.range,
          ),
        );
        break;
      }
      default:
        break;
    }
  }
  return diags;
}

/** Parses a whole native-syntax configuration file (`.tf`, `.tofu`, `.tftest.hcl`, ...). */
export function parseConfig(source: string | Uint8Array, filename: string, start: Pos = START): ParseResult<File> {
  const src = decodeSource(source);
  const { tokens, diagnostics } = lex(src, filename, start, "normal");
  const parser = new Parser(tokens, src);
  const { body, diags } = parser.parseBody("EOF");
  tokens.release();
  diagnostics.push(...diags);
  return { result: { filename, source: src, body }, diagnostics };
}

/** Parses a standalone expression (newlines are insignificant, as inside parentheses). */
export function parseExpression(source: string | Uint8Array, filename: string, start: Pos = START): ParseResult<Expression> {
  const src = decodeSource(source);
  const { tokens, diagnostics } = lex(src, filename, start, "normal");
  const parser = new Parser(tokens, src);
  parser.p.pushIncludeNewlines(false);
  const expr = parser.parseExpression(diagnostics);
  const next = parser.p.peek();
  if (parser.p.type(next) !== "EOF" && !parser.recovery) {
    diagnostics.push(
      errorDiag("Extra characters after expression", "An expression was successfully parsed, but extra characters were found after it.", parser.p.range(next)),
    );
  }
  parser.p.popIncludeNewlines();
  tokens.release();
  return { result: expr, diagnostics };
}

/** Parses a standalone template, such as a template file or a JSON string. */
export function parseTemplate(source: string | Uint8Array, filename: string, start: Pos = START): ParseResult<Expression> {
  const src = decodeSource(source);
  const { tokens, diagnostics } = lex(src, filename, start, "template");
  const parser = new Parser(tokens, src);
  const t = parseTemplateParts(parser, "EOF", false, diagnostics);
  tokens.release();
  return { result: templateResult(t, t.range), diagnostics };
}
