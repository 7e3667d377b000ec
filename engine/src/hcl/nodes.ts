// The native-syntax parser's tree nodes as classes: one per node kind of ast.ts, each with the
// fields that interface names, in the same order. Ranges are not stored as objects: a node keeps
// the string offsets of each range and its file's PositionMap, and the range fields are getters
// that make a SourceRange when read. A tree holds one range per node or more (most never read:
// evaluation needs them only for diagnostics), so this makes a tree about a quarter smaller. Each
// class always sets the same fields in the same order, so every node of a kind shares one shape.
//
// Consumers see only the ast.ts interfaces. Reading a range field gives an equal range each time
// (not the same object); `toJSON` and Node's inspect give the plain form, with the ranges.
import type {
  AnonSymbolExpr,
  Attribute,
  BinaryOperator,
  BinaryOpExpr,
  Block,
  Body,
  ConditionalExpr,
  Expression,
  ForExpr,
  FunctionCallExpr,
  IndexExpr,
  LiteralValue,
  LiteralValueExpr,
  ObjectConsExpr,
  ObjectConsItem,
  ObjectConsKeyExpr,
  ParenthesesExpr,
  RelativeTraversalExpr,
  ScopeTraversalExpr,
  SplatExpr,
  SyntaxErrorExpr,
  TemplateExpr,
  TemplateJoinExpr,
  TemplateWrapExpr,
  TupleConsExpr,
  Traverser,
  UnaryOperator,
  UnaryOpExpr,
} from "./ast.js";
import type { Range } from "./pos.js";
import { SourceRange, type PositionMap } from "./positions.js";

/** Fields holding offsets and the position map, left out of the plain form. */
const OFFSET_FIELDS = new Set([
  "map",
  "from",
  "to",
  "nameFrom",
  "nameTo",
  "equalsFrom",
  "equalsTo",
  "openFrom",
  "openTo",
  "closeFrom",
  "closeTo",
  "symbolFrom",
  "symbolTo",
  "bracketFrom",
  "bracketTo",
  "markerFrom",
  "markerTo",
  "typeFrom",
  "typeTo",
  "endFrom",
  "endTo",
]);
const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/** A node with its range kept as offsets; each subclass's constructor sets every field. */
abstract class Spanned {
  declare map: PositionMap;
  /** String offsets of the node's range (start inclusive, end exclusive). */
  declare from: number;
  declare to: number;

  get range(): SourceRange {
    return new SourceRange(this.map, this.from, this.to);
  }

  /** A range of this node's file from string offsets. */
  protected at(from: number, to: number): SourceRange {
    return new SourceRange(this.map, from, to);
  }

  /** The names of the range getters after the data fields, in the order ast.ts lists them. */
  protected rangeFields(): readonly string[] {
    return RANGE;
  }

  /** The plain form: the interface's fields in order, ranges as plain objects when serialised. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const self = this as unknown as Record<string, unknown>;
    for (const k of Object.keys(this)) if (!OFFSET_FIELDS.has(k)) out[k] = self[k];
    for (const k of this.rangeFields()) out[k] = self[k];
    return out;
  }

  [INSPECT](): Record<string, unknown> {
    return this.toJSON();
  }
}

const RANGE = ["range"] as const;

// Every field is declared (`declare`) and assigned in the constructor rather than initialised as a
// class field: a class field is defined by an initialiser function, and the base class's one,
// shared by every node kind, ran megamorphic and made allocation several times slower. The most
// common kinds (literals, templates, traversals and their steps, attributes) take their ranges as
// offsets, so that making one makes no SourceRange on the way.
//
// (Sharing the text of short names and values between nodes, through a small cache, took the tree
// a further 1.4 bytes per source byte smaller, but cost more parse time than it saved in
// collection; it was left out.)

export class LiteralNode extends Spanned implements LiteralValueExpr {
  declare readonly kind: "Literal";
  declare readonly value: LiteralValue;
  constructor(value: LiteralValue, map: PositionMap, from: number, to: number) {
    super();
    this.kind = "Literal";
    this.value = value;
    this.map = map;
    this.from = from;
    this.to = to;
  }
}

export class TemplateNode extends Spanned implements TemplateExpr {
  declare readonly kind: "Template";
  declare readonly parts: Expression[];
  constructor(parts: Expression[], map: PositionMap, from: number, to: number) {
    super();
    this.kind = "Template";
    this.parts = parts;
    this.map = map;
    this.from = from;
    this.to = to;
  }
}

export class TemplateWrapNode extends Spanned implements TemplateWrapExpr {
  declare readonly kind: "TemplateWrap";
  declare readonly wrapped: Expression;
  constructor(wrapped: Expression, r: SourceRange) {
    super();
    this.kind = "TemplateWrap";
    this.wrapped = wrapped;
    this.map = r.map;
    this.from = r.from;
    this.to = r.to;
  }
}

export class TemplateJoinNode extends Spanned implements TemplateJoinExpr {
  declare readonly kind: "TemplateJoin";
  declare readonly tuple: ForExpr;
  constructor(tuple: ForExpr, r: SourceRange) {
    super();
    this.kind = "TemplateJoin";
    this.tuple = tuple;
    this.map = r.map;
    this.from = r.from;
    this.to = r.to;
  }
}

/** Traversals grow while parsing (`a.b[0]`): the parser replaces `traversal` and moves `to`. */
export class ScopeTraversalNode extends Spanned implements ScopeTraversalExpr {
  declare readonly kind: "ScopeTraversal";
  declare traversal: Traverser[];
  constructor(traversal: Traverser[], map: PositionMap, from: number, to: number) {
    super();
    this.kind = "ScopeTraversal";
    this.traversal = traversal;
    this.map = map;
    this.from = from;
    this.to = to;
  }
}

export class RelativeTraversalNode extends Spanned implements RelativeTraversalExpr {
  declare readonly kind: "RelativeTraversal";
  declare readonly source: Expression;
  declare traversal: Traverser[];
  constructor(source: Expression, traversal: Traverser[], r: SourceRange) {
    super();
    this.kind = "RelativeTraversal";
    this.source = source;
    this.traversal = traversal;
    this.map = r.map;
    this.from = r.from;
    this.to = r.to;
  }
}

export class FunctionCallNode extends Spanned implements FunctionCallExpr {
  declare readonly kind: "FunctionCall";
  declare readonly name: string;
  declare readonly args: Expression[];
  declare readonly expandFinal: boolean;
  declare private readonly nameFrom: number;
  declare private readonly nameTo: number;
  declare private readonly openFrom: number;
  declare private readonly openTo: number;
  declare private readonly closeFrom: number;
  declare private readonly closeTo: number;
  constructor(
    name: string,
    args: Expression[],
    expandFinal: boolean,
    nameRange: SourceRange,
    openParenRange: SourceRange,
    closeParenRange: SourceRange,
    r: SourceRange,
  ) {
    super();
    this.kind = "FunctionCall";
    this.name = name;
    this.args = args;
    this.expandFinal = expandFinal;
    this.map = r.map;
    this.from = r.from;
    this.to = r.to;
    this.nameFrom = nameRange.from;
    this.nameTo = nameRange.to;
    this.openFrom = openParenRange.from;
    this.openTo = openParenRange.to;
    this.closeFrom = closeParenRange.from;
    this.closeTo = closeParenRange.to;
  }
  get nameRange(): SourceRange {
    return this.at(this.nameFrom, this.nameTo);
  }
  get openParenRange(): SourceRange {
    return this.at(this.openFrom, this.openTo);
  }
  get closeParenRange(): SourceRange {
    return this.at(this.closeFrom, this.closeTo);
  }
  protected override rangeFields(): readonly string[] {
    return FUNCTION_CALL_RANGES;
  }
}
const FUNCTION_CALL_RANGES = ["nameRange", "openParenRange", "closeParenRange", "range"] as const;

export class ConditionalNode extends Spanned implements ConditionalExpr {
  declare readonly kind: "Conditional";
  declare readonly condition: Expression;
  declare readonly trueResult: Expression;
  declare readonly falseResult: Expression;
  constructor(condition: Expression, trueResult: Expression, falseResult: Expression, r: SourceRange) {
    super();
    this.kind = "Conditional";
    this.condition = condition;
    this.trueResult = trueResult;
    this.falseResult = falseResult;
    this.map = r.map;
    this.from = r.from;
    this.to = r.to;
  }
}

export class BinaryOpNode extends Spanned implements BinaryOpExpr {
  declare readonly kind: "BinaryOp";
  declare readonly op: BinaryOperator;
  declare readonly lhs: Expression;
  declare readonly rhs: Expression;
  constructor(op: BinaryOperator, lhs: Expression, rhs: Expression, r: SourceRange) {
    super();
    this.kind = "BinaryOp";
    this.op = op;
    this.lhs = lhs;
    this.rhs = rhs;
    this.map = r.map;
    this.from = r.from;
    this.to = r.to;
  }
}

export class UnaryOpNode extends Spanned implements UnaryOpExpr {
  declare readonly kind: "UnaryOp";
  declare readonly op: UnaryOperator;
  declare readonly operand: Expression;
  declare private readonly symbolFrom: number;
  declare private readonly symbolTo: number;
  constructor(op: UnaryOperator, operand: Expression, symbolRange: SourceRange, r: SourceRange) {
    super();
    this.kind = "UnaryOp";
    this.op = op;
    this.operand = operand;
    this.map = r.map;
    this.from = r.from;
    this.to = r.to;
    this.symbolFrom = symbolRange.from;
    this.symbolTo = symbolRange.to;
  }
  get symbolRange(): SourceRange {
    return this.at(this.symbolFrom, this.symbolTo);
  }
  protected override rangeFields(): readonly string[] {
    return UNARY_RANGES;
  }
}
const UNARY_RANGES = ["symbolRange", "range"] as const;

export class TupleNode extends Spanned implements TupleConsExpr {
  declare readonly kind: "Tuple";
  declare readonly exprs: Expression[];
  declare private readonly openFrom: number;
  declare private readonly openTo: number;
  constructor(exprs: Expression[], openRange: SourceRange, r: SourceRange) {
    super();
    this.kind = "Tuple";
    this.exprs = exprs;
    this.map = r.map;
    this.from = r.from;
    this.to = r.to;
    this.openFrom = openRange.from;
    this.openTo = openRange.to;
  }
  get openRange(): SourceRange {
    return this.at(this.openFrom, this.openTo);
  }
  protected override rangeFields(): readonly string[] {
    return OPEN_RANGES;
  }
}
const OPEN_RANGES = ["openRange", "range"] as const;

export class ObjectNode extends Spanned implements ObjectConsExpr {
  declare readonly kind: "Object";
  declare readonly items: ObjectConsItem[];
  declare private readonly openFrom: number;
  declare private readonly openTo: number;
  constructor(items: ObjectConsItem[], openRange: SourceRange, r: SourceRange) {
    super();
    this.kind = "Object";
    this.items = items;
    this.map = r.map;
    this.from = r.from;
    this.to = r.to;
    this.openFrom = openRange.from;
    this.openTo = openRange.to;
  }
  get openRange(): SourceRange {
    return this.at(this.openFrom, this.openTo);
  }
  protected override rangeFields(): readonly string[] {
    return OPEN_RANGES;
  }
}

/** An object key's range is its expression's. */
export class ObjectKeyNode implements ObjectConsKeyExpr {
  declare readonly kind: "ObjectKey";
  declare readonly wrapped: Expression;
  declare readonly forceNonLiteral: boolean;
  constructor(wrapped: Expression, forceNonLiteral: boolean) {
    this.kind = "ObjectKey";
    this.wrapped = wrapped;
    this.forceNonLiteral = forceNonLiteral;
  }
  get range(): SourceRange {
    return rangeOf(this.wrapped);
  }
  toJSON(): Record<string, unknown> {
    return { kind: this.kind, wrapped: this.wrapped, forceNonLiteral: this.forceNonLiteral, range: this.range };
  }
  [INSPECT](): Record<string, unknown> {
    return this.toJSON();
  }
}

export class ForNode extends Spanned implements ForExpr {
  declare readonly kind: "For";
  declare readonly keyVar: string | undefined;
  declare readonly valVar: string;
  declare readonly collExpr: Expression;
  declare readonly keyExpr: Expression | undefined;
  declare readonly valExpr: Expression;
  declare readonly condExpr: Expression | undefined;
  declare readonly group: boolean;
  declare private readonly openFrom: number;
  declare private readonly openTo: number;
  declare private readonly closeFrom: number;
  declare private readonly closeTo: number;
  constructor(
    keyVar: string | undefined,
    valVar: string,
    collExpr: Expression,
    keyExpr: Expression | undefined,
    valExpr: Expression,
    condExpr: Expression | undefined,
    group: boolean,
    openRange: SourceRange,
    closeRange: SourceRange,
    r: SourceRange,
  ) {
    super();
    this.kind = "For";
    this.keyVar = keyVar;
    this.valVar = valVar;
    this.collExpr = collExpr;
    this.keyExpr = keyExpr;
    this.valExpr = valExpr;
    this.condExpr = condExpr;
    this.group = group;
    this.map = r.map;
    this.from = r.from;
    this.to = r.to;
    this.openFrom = openRange.from;
    this.openTo = openRange.to;
    this.closeFrom = closeRange.from;
    this.closeTo = closeRange.to;
  }
  get openRange(): SourceRange {
    return this.at(this.openFrom, this.openTo);
  }
  get closeRange(): SourceRange {
    return this.at(this.closeFrom, this.closeTo);
  }
  /** As the parser always built it: the optional fields last, and only when set. */
  override toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = {
      kind: this.kind,
      valVar: this.valVar,
      collExpr: this.collExpr,
      valExpr: this.valExpr,
      group: this.group,
      openRange: this.openRange,
      closeRange: this.closeRange,
      range: this.range,
    };
    if (this.keyVar !== undefined) out.keyVar = this.keyVar;
    if (this.keyExpr !== undefined) out.keyExpr = this.keyExpr;
    if (this.condExpr !== undefined) out.condExpr = this.condExpr;
    return out;
  }
}

export class IndexNode extends Spanned implements IndexExpr {
  declare readonly kind: "Index";
  declare readonly collection: Expression;
  declare readonly key: Expression;
  declare private readonly openFrom: number;
  declare private readonly openTo: number;
  declare private readonly bracketFrom: number;
  declare private readonly bracketTo: number;
  constructor(collection: Expression, key: Expression, openRange: SourceRange, bracketRange: SourceRange, r: SourceRange) {
    super();
    this.kind = "Index";
    this.collection = collection;
    this.key = key;
    this.map = r.map;
    this.from = r.from;
    this.to = r.to;
    this.openFrom = openRange.from;
    this.openTo = openRange.to;
    this.bracketFrom = bracketRange.from;
    this.bracketTo = bracketRange.to;
  }
  get openRange(): SourceRange {
    return this.at(this.openFrom, this.openTo);
  }
  get bracketRange(): SourceRange {
    return this.at(this.bracketFrom, this.bracketTo);
  }
  protected override rangeFields(): readonly string[] {
    return INDEX_RANGES;
  }
}
const INDEX_RANGES = ["openRange", "bracketRange", "range"] as const;

export class SplatNode extends Spanned implements SplatExpr {
  declare readonly kind: "Splat";
  declare readonly source: Expression;
  declare readonly each: Expression;
  declare readonly item: AnonSymbolExpr;
  declare readonly attrOnly: boolean;
  declare private readonly markerFrom: number;
  declare private readonly markerTo: number;
  constructor(source: Expression, each: Expression, item: AnonSymbolExpr, attrOnly: boolean, markerRange: SourceRange, r: SourceRange) {
    super();
    this.kind = "Splat";
    this.source = source;
    this.each = each;
    this.item = item;
    this.attrOnly = attrOnly;
    this.map = r.map;
    this.from = r.from;
    this.to = r.to;
    this.markerFrom = markerRange.from;
    this.markerTo = markerRange.to;
  }
  get markerRange(): SourceRange {
    return this.at(this.markerFrom, this.markerTo);
  }
  protected override rangeFields(): readonly string[] {
    return SPLAT_RANGES;
  }
}
const SPLAT_RANGES = ["markerRange", "range"] as const;

export class AnonSymbolNode extends Spanned implements AnonSymbolExpr {
  declare readonly kind: "AnonSymbol";
  constructor(r: SourceRange) {
    super();
    this.kind = "AnonSymbol";
    this.map = r.map;
    this.from = r.from;
    this.to = r.to;
  }
}

export class ParenthesesNode extends Spanned implements ParenthesesExpr {
  declare readonly kind: "Parentheses";
  declare readonly expression: Expression;
  constructor(expression: Expression, r: SourceRange) {
    super();
    this.kind = "Parentheses";
    this.expression = expression;
    this.map = r.map;
    this.from = r.from;
    this.to = r.to;
  }
}

export class SyntaxErrorNode extends Spanned implements SyntaxErrorExpr {
  declare readonly kind: "SyntaxError";
  constructor(r: SourceRange) {
    super();
    this.kind = "SyntaxError";
    this.map = r.map;
    this.from = r.from;
    this.to = r.to;
  }
}

// ---- Traversal steps -----------------------------------------------------------------------------

export class RootStep extends Spanned {
  declare readonly kind: "Root";
  declare readonly name: string;
  constructor(name: string, map: PositionMap, from: number, to: number) {
    super();
    this.kind = "Root";
    this.name = name;
    this.map = map;
    this.from = from;
    this.to = to;
  }
}

export class AttrStep extends Spanned {
  declare readonly kind: "Attr";
  declare readonly name: string;
  constructor(name: string, map: PositionMap, from: number, to: number) {
    super();
    this.kind = "Attr";
    this.name = name;
    this.map = map;
    this.from = from;
    this.to = to;
  }
}

export class IndexStep extends Spanned {
  declare readonly kind: "Index";
  declare readonly key: LiteralValue;
  constructor(key: LiteralValue, map: PositionMap, from: number, to: number) {
    super();
    this.kind = "Index";
    this.key = key;
    this.map = map;
    this.from = from;
    this.to = to;
  }
}

// ---- Structure ----------------------------------------------------------------------------------

export class AttributeNode extends Spanned implements Attribute {
  declare readonly kind: "Attribute";
  declare readonly name: string;
  declare readonly expr: Expression;
  // The name starts where the attribute does.
  declare private readonly nameTo: number;
  declare private readonly equalsFrom: number;
  declare private readonly equalsTo: number;
  constructor(name: string, expr: Expression, map: PositionMap, from: number, to: number, nameTo: number, equalsFrom: number, equalsTo: number) {
    super();
    this.kind = "Attribute";
    this.name = name;
    this.expr = expr;
    this.map = map;
    this.from = from;
    this.to = to;
    this.nameTo = nameTo;
    this.equalsFrom = equalsFrom;
    this.equalsTo = equalsTo;
  }
  get nameRange(): SourceRange {
    return this.at(this.from, this.nameTo);
  }
  get equalsRange(): SourceRange {
    return this.at(this.equalsFrom, this.equalsTo);
  }
  protected override rangeFields(): readonly string[] {
    return ATTRIBUTE_RANGES;
  }
}
const ATTRIBUTE_RANGES = ["nameRange", "equalsRange", "range"] as const;

export class BlockNode extends Spanned implements Block {
  declare readonly kind: "Block";
  declare readonly type: string;
  declare readonly labels: string[];
  declare readonly body: Body;
  declare readonly labelRanges: SourceRange[];
  declare private readonly typeFrom: number;
  declare private readonly typeTo: number;
  declare private readonly openFrom: number;
  declare private readonly openTo: number;
  declare private readonly closeFrom: number;
  declare private readonly closeTo: number;
  constructor(
    type: string,
    labels: string[],
    body: Body,
    typeRange: SourceRange,
    labelRanges: SourceRange[],
    openBraceRange: SourceRange,
    closeBraceRange: SourceRange,
    r: SourceRange,
  ) {
    super();
    this.kind = "Block";
    this.type = type;
    this.labels = labels;
    this.body = body;
    this.labelRanges = labelRanges;
    this.map = r.map;
    this.from = r.from;
    this.to = r.to;
    this.typeFrom = typeRange.from;
    this.typeTo = typeRange.to;
    this.openFrom = openBraceRange.from;
    this.openTo = openBraceRange.to;
    this.closeFrom = closeBraceRange.from;
    this.closeTo = closeBraceRange.to;
  }
  get typeRange(): SourceRange {
    return this.at(this.typeFrom, this.typeTo);
  }
  get openBraceRange(): SourceRange {
    return this.at(this.openFrom, this.openTo);
  }
  get closeBraceRange(): SourceRange {
    return this.at(this.closeFrom, this.closeTo);
  }
  override toJSON(): Record<string, unknown> {
    return {
      kind: this.kind,
      type: this.type,
      labels: this.labels,
      body: this.body,
      typeRange: this.typeRange,
      labelRanges: this.labelRanges,
      openBraceRange: this.openBraceRange,
      closeBraceRange: this.closeBraceRange,
      range: this.range,
    };
  }
}

export class BodyNode extends Spanned implements Body {
  declare readonly kind: "Body";
  declare readonly attributes: Attribute[];
  declare readonly blocks: Block[];
  declare private readonly endFrom: number;
  declare private readonly endTo: number;
  constructor(attributes: Attribute[], blocks: Block[], r: SourceRange, endRange: SourceRange) {
    super();
    this.kind = "Body";
    this.attributes = attributes;
    this.blocks = blocks;
    this.map = r.map;
    this.from = r.from;
    this.to = r.to;
    this.endFrom = endRange.from;
    this.endTo = endRange.to;
  }
  get endRange(): SourceRange {
    return this.at(this.endFrom, this.endTo);
  }
  protected override rangeFields(): readonly string[] {
    return BODY_RANGES;
  }
}
const BODY_RANGES = ["range", "endRange"] as const;

/**
 * An expression's range as the SourceRange it is: every range of a tree this parser makes is
 * one (the parser makes every node from its tokens' offsets).
 */
export function rangeOf(e: { readonly range: Range }): SourceRange {
  // From the offsets, without a megamorphic call of one of the range getters.
  if (e instanceof Spanned) return new SourceRange(e.map, e.from, e.to);
  return e.range as SourceRange;
}
