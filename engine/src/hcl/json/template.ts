// JSON strings are templates: HCL parses a string's (unescaped) value with the native template
// parser, placing it just after the opening quote. Positions inside strings that contain escapes
// are therefore approximate, exactly as in HCL.
import type { Expression } from "../ast.js";
import type { Diagnostic } from "../diagnostics.js";
import { parseTemplate } from "../parse.js";
import type { JSONString } from "./parser.js";

export function parseJSONStringTemplate(s: JSONString): { result: Expression; diagnostics: Diagnostic[] } {
  const start = s.range.start;
  return parseTemplate(s.value, s.range.filename, { line: start.line, column: start.column + 1, byte: start.byte + 1 });
}
