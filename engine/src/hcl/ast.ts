// The syntax tree of HCL's native syntax, modelled on hclsyntax's node types. Every node carries
// its source range. The parser produces the tree only: evaluating expressions is the job of the
// `lang` module, which walks these nodes. The parser's nodes are the classes of nodes.ts, whose
// range fields are getters: read them, do not copy a node with object spread.
import type { Range } from "./pos.js";

/** A literal value as written. Numbers keep their exact source text (arbitrary precision). */
export type LiteralValue =
  | { type: "number"; text: string }
  | { type: "string"; value: string }
  | { type: "bool"; value: boolean }
  | { type: "null" }
  /** A placeholder standing in for a part of the source that failed to parse. */
  | { type: "invalid" };

export type Traverser =
  | { kind: "Root"; name: string; range: Range }
  | { kind: "Attr"; name: string; range: Range }
  | { kind: "Index"; key: LiteralValue; range: Range };

export type BinaryOperator =
  | "||" | "&&"
  | "==" | "!="
  | "<" | "<=" | ">" | ">="
  | "+" | "-"
  | "*" | "/" | "%";

export type UnaryOperator = "-" | "!";

export interface LiteralValueExpr {
  kind: "Literal";
  value: LiteralValue;
  range: Range;
}

export interface TemplateExpr {
  kind: "Template";
  parts: Expression[];
  range: Range;
}

/** A template consisting of a single interpolation, like "${foo}": its value is foo's value, unconverted. */
export interface TemplateWrapExpr {
  kind: "TemplateWrap";
  wrapped: Expression;
  range: Range;
}

/** The result of a `%{ for }` directive: the template parts produced for each element, joined. */
export interface TemplateJoinExpr {
  kind: "TemplateJoin";
  tuple: ForExpr;
  range: Range;
}

export interface ScopeTraversalExpr {
  kind: "ScopeTraversal";
  /** Starts with a Root traverser. */
  traversal: Traverser[];
  range: Range;
}

export interface RelativeTraversalExpr {
  kind: "RelativeTraversal";
  source: Expression;
  traversal: Traverser[];
  range: Range;
}

export interface FunctionCallExpr {
  kind: "FunctionCall";
  /** The full name, including any namespace: "provider::aws::arn_parse". */
  name: string;
  args: Expression[];
  /** True when the last argument is followed by `...` and is to be expanded. */
  expandFinal: boolean;
  nameRange: Range;
  openParenRange: Range;
  closeParenRange: Range;
  range: Range;
}

export interface ConditionalExpr {
  kind: "Conditional";
  condition: Expression;
  trueResult: Expression;
  falseResult: Expression;
  range: Range;
}

export interface BinaryOpExpr {
  kind: "BinaryOp";
  op: BinaryOperator;
  lhs: Expression;
  rhs: Expression;
  range: Range;
}

export interface UnaryOpExpr {
  kind: "UnaryOp";
  op: UnaryOperator;
  operand: Expression;
  symbolRange: Range;
  range: Range;
}

export interface TupleConsExpr {
  kind: "Tuple";
  exprs: Expression[];
  openRange: Range;
  range: Range;
}

export interface ObjectConsItem {
  key: ObjectConsKeyExpr;
  value: Expression;
}

export interface ObjectConsExpr {
  kind: "Object";
  items: ObjectConsItem[];
  openRange: Range;
  range: Range;
}

/**
 * An object constructor key. A key that is a bare identifier (`foo = 1`) means the string "foo",
 * unless it was wrapped in parentheses (`(foo) = 1`), which forces evaluation as an expression.
 * The keywords `true`, `false` and `null` parse as literals but, as keys, also name themselves.
 */
export interface ObjectConsKeyExpr {
  kind: "ObjectKey";
  wrapped: Expression;
  forceNonLiteral: boolean;
  range: Range;
}

export interface ForExpr {
  kind: "For";
  keyVar?: string;
  valVar: string;
  collExpr: Expression;
  /** Present for the object form `{for k, v in x : k => v}`. */
  keyExpr?: Expression;
  valExpr: Expression;
  condExpr?: Expression;
  /** The `...` grouping marker of the object form. */
  group: boolean;
  openRange: Range;
  closeRange: Range;
  range: Range;
}

export interface IndexExpr {
  kind: "Index";
  collection: Expression;
  key: Expression;
  openRange: Range;
  bracketRange: Range;
  range: Range;
}

export interface SplatExpr {
  kind: "Splat";
  source: Expression;
  /** Evaluated once per element, with `item` standing for the element. */
  each: Expression;
  item: AnonSymbolExpr;
  /** True for the legacy attribute-only form `foo.*.bar`. */
  attrOnly: boolean;
  markerRange: Range;
  range: Range;
}

/** The placeholder for "the current element" inside a splat's `each` expression. */
export interface AnonSymbolExpr {
  kind: "AnonSymbol";
  range: Range;
}

export interface ParenthesesExpr {
  kind: "Parentheses";
  expression: Expression;
  range: Range;
}

/** An expression that failed to parse; its diagnostics were already reported. */
export interface SyntaxErrorExpr {
  kind: "SyntaxError";
  range: Range;
}

export type Expression =
  | LiteralValueExpr
  | TemplateExpr
  | TemplateWrapExpr
  | TemplateJoinExpr
  | ScopeTraversalExpr
  | RelativeTraversalExpr
  | FunctionCallExpr
  | ConditionalExpr
  | BinaryOpExpr
  | UnaryOpExpr
  | TupleConsExpr
  | ObjectConsExpr
  | ObjectConsKeyExpr
  | ForExpr
  | IndexExpr
  | SplatExpr
  | AnonSymbolExpr
  | ParenthesesExpr
  | SyntaxErrorExpr;

export interface Attribute {
  kind: "Attribute";
  name: string;
  expr: Expression;
  nameRange: Range;
  equalsRange: Range;
  range: Range;
}

export interface Block {
  kind: "Block";
  type: string;
  labels: string[];
  body: Body;
  typeRange: Range;
  labelRanges: Range[];
  openBraceRange: Range;
  closeBraceRange: Range;
  range: Range;
}

export interface Body {
  kind: "Body";
  /** In source order; a name defined twice is reported and only its first definition kept. */
  attributes: Attribute[];
  blocks: Block[];
  range: Range;
  /** The position just after the body's last token (for "missing item" diagnostics). */
  endRange: Range;
}

/** A parsed native-syntax file. */
export interface File {
  filename: string;
  /** The decoded source text (see source.ts for how invalid UTF-8 is kept). */
  source: string;
  body: Body;
}
