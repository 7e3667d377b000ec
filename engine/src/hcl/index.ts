// The public surface of the HCL module: parsing native and JSON syntax into trees with source
// ranges, decoding bodies against schemas, and diagnostics with OpenTofu's rendering.
// Browser-safe: no Node APIs; callers pass file contents in as strings or bytes.
export type * from "./ast.js";
export type { Pos, Range } from "./pos.js";
export { rangeBetween, formatRange, emptyRangeAt, rangeContainsOffset } from "./pos.js";
export { exprStartRange } from "./start_range.js";
export type {
  Diagnostic,
  DiagnosticExpression,
  DiagnosticExpressionValue,
  DiagnosticFunctionCall,
  DiagnosticFunctionParam,
  Severity,
} from "./diagnostics.js";
export { copyDiagnostic, errorDiag, hasErrors, markFromCheckBlock, withExpression } from "./diagnostics.js";
export { invalidTokenDiagnostics, parseConfig, parseExpression, parseTemplate, type ParseResult } from "./parse.js";
export {
  parseJSONConfig,
  parseJSONExpression,
  type JSONValue,
  type JSONObject,
  type JSONArray,
  type JSONString,
  type JSONNumber,
  type JSONBool,
  type JSONNull,
  type JSONInvalid,
  type JSONObjectAttr,
  type JSONFile,
} from "./json/parser.js";
export { parseJSONStringTemplate } from "./json/template.js";
export {
  bodyContent,
  partialContent,
  justAttributes,
  nativeBody,
  jsonBody,
  missingItemRange,
  type AttributeSchema,
  type BlockHeaderSchema,
  type BodySchema,
  type BodyContent,
  type ContentAttribute,
  type ContentBlock,
  type SyntaxBody,
  type NativeBody,
  type JSONBody,
  type JSONExpression,
  type AnyExpression,
} from "./content.js";
export { diagnosticToJSON, renderDiagnostic, wrapString, type JSONDiagnostic, type RenderOptions, type RenderSource, type RenderSources } from "./render.js";
export { decodeSource } from "./source.js";
export { absTraversalForExpr, exprAsKeyword, exprList, exprMap, anyExprRange, type ExprMapItem } from "./static.js";
export { dumpExpression, dumpBody } from "./astdump.js";
// The token stream (with comments and newlines), for tools that work on source text such as `fmt`.
export { scanTokens, Token, type TokenType, type ScanMode } from "./scanner.js";
export { escapeQuotedStringLit, quoteStringLit } from "./quote.js";
