// Evaluation of native-syntax expressions to values, node for node as hclsyntax's Value methods:
// the same results, the same unknown and mark handling, and the same diagnostics (summary,
// detail, subject and context ranges) in the same order.
import {
  errorDiag,
  exprAsKeyword,
  hasErrors,
  rangeBetween,
  type BinaryOpExpr,
  type ConditionalExpr,
  type Diagnostic,
  type Expression,
  type ForExpr,
  type FunctionCallExpr,
  type IndexExpr,
  type LiteralValue,
  type ObjectConsExpr,
  type ObjectConsKeyExpr,
  type Range,
  type SplatExpr,
  type TemplateExpr,
  type TemplateJoinExpr,
  type Traverser,
  type UnaryOpExpr,
  exprStartRange,
} from "../../hcl/index.js";
import {
  BoolType,
  DynamicPseudoType,
  DynamicVal,
  EmptyTupleVal,
  boolVal,
  canListVal,
  friendlyName,
  NumberType,
  StringType,
  assertNever,
  binaryOp,
  convert,
  elementPairs,
  getAttr,
  getConversionUnsafe,
  index,
  listOf,
  listVal,
  listValEmpty,
  nullVal,
  objectVal,
  parseNumberVal,
  rawEquals,
  refine,
  stringVal,
  tupleOf,
  tupleVal,
  typeEquals,
  unaryOp,
  unifyUnsafe,
  unknownVal,
  unmark,
  withMarks,
  type Conversion,
  type Func,
  type Marks,
  type Type,
  type Value,
} from "../../values/index.js";
import { ClosureFunc, type ExpressionClosure } from "./closure.js";
import type { EvalContext } from "./context.js";
import { allFromExpr, fromExpr } from "./diagvalues.js";
import { nameSuggestion } from "./suggest.js";
import { describeConditionalTypeMismatch } from "./typemismatch.js";

export interface EvalResult {
  value: Value;
  diagnostics: Diagnostic[];
}

/** What an "unknown function" diagnostic was about (HCL's FunctionCallUnknownDiagExtra). */
export interface UnknownFunctionInfo {
  readonly name: string;
  /** "provider::aws::" for a namespaced call, "" otherwise. */
  readonly namespace: string;
}

const unknownFunctionDiags = new WeakMap<Diagnostic, UnknownFunctionInfo>();

/** For a "Call to unknown function" diagnostic: the function and namespace that were called. */
export function unknownFunctionCall(d: Diagnostic): UnknownFunctionInfo | undefined {
  return unknownFunctionDiags.get(d);
}

/** The raw error a function returned, for callers that roll up nested template errors. */
const callErrors = new WeakMap<Diagnostic, { name: string; message: string }>();
export function functionCallError(d: Diagnostic): { name: string; message: string } | undefined {
  return callErrors.get(d);
}

export function evaluate(expr: Expression, ctx: EvalContext): EvalResult {
  switch (expr.kind) {
    case "Literal":
      return ok(literalValue(expr.value));
    case "Template":
      return evalTemplate(expr, ctx);
    case "TemplateWrap":
      return evaluate(expr.wrapped, ctx);
    case "TemplateJoin":
      return evalTemplateJoin(expr, ctx);
    case "ScopeTraversal": {
      const r = traverseAbs(expr.traversal, ctx);
      allFromExpr(r.diagnostics, expr, ctx);
      return r;
    }
    case "RelativeTraversal": {
      const src = evaluate(expr.source, ctx);
      const r = traverseRel(src.value, expr.traversal);
      allFromExpr(r.diagnostics, expr, ctx);
      return { value: r.value, diagnostics: [...src.diagnostics, ...r.diagnostics] };
    }
    case "FunctionCall":
      return evalFunctionCall(expr, ctx);
    case "Conditional":
      return evalConditional(expr, ctx);
    case "BinaryOp":
      return evalBinary(expr, ctx);
    case "UnaryOp":
      return evalUnary(expr, ctx);
    case "Tuple": {
      const diags: Diagnostic[] = [];
      const vals = expr.exprs.map((x) => collect(evaluate(x, ctx), diags));
      return { value: tupleVal(vals), diagnostics: diags };
    }
    case "Object":
      return evalObject(expr, ctx);
    case "ObjectKey":
      return evalObjectKey(expr, ctx);
    case "For":
      return evalFor(expr, ctx);
    case "Index":
      return evalIndex(expr, ctx);
    case "Splat":
      return evalSplat(expr, ctx);
    case "AnonSymbol":
      return ok(ctx.symbolValue(expr) ?? DynamicVal);
    case "Parentheses":
      return evaluate(expr.expression, ctx);
    case "SyntaxError":
      return ok(DynamicVal);
    default:
      return assertNever(expr);
  }
}

function ok(value: Value): EvalResult {
  return { value, diagnostics: [] };
}

function collect(r: EvalResult, into: Diagnostic[]): Value {
  into.push(...r.diagnostics);
  return r.value;
}

export function literalValue(v: LiteralValue): Value {
  switch (v.type) {
    case "number":
      return parseNumberVal(v.text) ?? DynamicVal;
    case "string":
      return stringVal(v.value);
    case "bool":
      return boolVal(v.value);
    case "null":
      return nullVal(DynamicPseudoType);
    case "invalid":
      return DynamicVal;
  }
}

// ---------------------------------------------------------------------------------------------
// Traversals

export function traverseAbs(traversal: readonly Traverser[], ctx: EvalContext): EvalResult {
  const root = traversal[0];
  if (!root || root.kind !== "Root") return ok(DynamicVal);
  if (!ctx.hasVariables()) {
    return { value: DynamicVal, diagnostics: [errorDiag("Variables not allowed", "Variables may not be used here.", root.range)] };
  }
  const v = ctx.variable(root.name);
  if (v === undefined) {
    const s = nameSuggestion(root.name, ctx.variableNames());
    const hint = s ? ` Did you mean ${JSON.stringify(s)}?` : "";
    return { value: DynamicVal, diagnostics: [errorDiag("Unknown variable", `There is no variable named ${JSON.stringify(root.name)}.${hint}`, root.range)] };
  }
  return traverseRel(v, traversal.slice(1));
}

export function traverseRel(start: Value, steps: readonly Traverser[]): EvalResult {
  let v = start;
  for (const step of steps) {
    let r;
    if (step.kind === "Attr") r = getAttr(v, step.name);
    else if (step.kind === "Index") r = index(v, literalValue(step.key));
    else continue;
    if (!r.ok) return { value: DynamicVal, diagnostics: [errorDiag(r.summary, r.detail, step.range)] };
    v = r.value;
  }
  return ok(v);
}

// ---------------------------------------------------------------------------------------------
// Templates

/** At most this many bytes of a template's known prefix refine its unknown result (as HCL). */
const MAX_PREFIX_BYTES = 128;

function evalTemplate(e: TemplateExpr, ctx: EvalContext): EvalResult {
  const diags: Diagnostic[] = [];
  let buf = "";
  let known = true;
  const marks: Marks[] = [];
  for (const part of e.parts) {
    const pv = collect(evaluate(part, ctx), diags);
    if (pv.kind === "null") {
      diags.push(
        fromExpr(
          errorDiag(
            "Invalid template interpolation value",
            "The expression result is null. Cannot include a null value in a string template.",
            part.range,
            e.range,
          ),
          part,
          ctx,
        ),
      );
      continue;
    }
    const [plain, m] = unmark(pv);
    marks.push(m);
    if (plain.kind === "unknown") {
      known = false;
      continue;
    }
    const s = convert(plain, StringType);
    if (!s.ok) {
      diags.push(
        fromExpr(
          errorDiag("Invalid template interpolation value", `Cannot include the given value in a string template: ${s.error.message}.`, part.range, e.range),
          part,
          ctx,
        ),
      );
      continue;
    }
    if (known && !hasErrors(diags) && s.value.kind === "string") buf += s.value.value;
  }
  let ret: Value;
  if (!known) {
    ret = unknownVal(StringType);
    if (!hasErrors(diags) && buf !== "") ret = refine(ret).stringPrefix(truncateUTF8(buf, MAX_PREFIX_BYTES)).newValue();
    ret = refine(ret).notNull().newValue();
  } else {
    ret = stringVal(buf);
  }
  return { value: withMarks(ret, ...marks), diagnostics: diags };
}

function truncateUTF8(s: string, maxBytes: number): string {
  let bytes = 0;
  let out = "";
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    const n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes + n > maxBytes) break;
    bytes += n;
    out += ch;
  }
  return out;
}

function evalTemplateJoin(e: TemplateJoinExpr, ctx: EvalContext): EvalResult {
  const r = evaluate(e.tuple, ctx);
  const diags = [...r.diagnostics];
  const tuple = r.value;
  if (tuple.type.kind === "dynamic" || tuple.kind === "unknown") return { value: unknownVal(StringType), diagnostics: diags };
  const [plain, marks] = unmark(tuple);
  const allMarks: Marks[] = [marks];
  let buf = "";
  const els = plain.kind === "tuple" ? plain.elements : [];
  for (const el of els) {
    if (el.kind === "null") {
      diags.push(fromExpr(errorDiag("Invalid template interpolation value", "An iteration result is null. Cannot include a null value in a string template.", e.range), e, ctx));
      continue;
    }
    if (el.type.kind === "dynamic") return { value: withMarks(unknownVal(StringType), marks), diagnostics: diags };
    const s = convert(el, StringType);
    if (!s.ok) {
      diags.push(
        fromExpr(
          errorDiag(
            "Invalid template interpolation value",
            `Cannot include one of the interpolation results into the string template: ${s.error.message}.`,
            e.range,
          ),
          e,
          ctx,
        ),
      );
      continue;
    }
    if (el.kind === "unknown") return { value: withMarks(unknownVal(StringType), marks), diagnostics: diags };
    const [sv, sm] = unmark(s.value);
    allMarks.push(sm);
    if (sv.kind === "string") buf += sv.value;
  }
  return { value: withMarks(stringVal(buf), ...allMarks), diagnostics: diags };
}

// ---------------------------------------------------------------------------------------------
// Function calls

function evalFunctionCall(e: FunctionCallExpr, ctx: EvalContext): EvalResult {
  let fn = ctx.function(e.name);
  if (!fn) {
    const found = ctx.resolveFunction(e.name, e.nameRange);
    if (!found) return { value: DynamicVal, diagnostics: [fromExpr(unknownFunction(e, ctx), e, ctx)] };
    if (!found.fn) return { value: DynamicVal, diagnostics: found.diagnostics };
    fn = found.fn;
  }
  const diags: Diagnostic[] = [];
  const params = fn.params;
  const varParam = fn.varParam;
  // Diagnostics about the call name the function (HCL's functionCallDiagExtra).
  const callDiag = (d: Diagnostic, expr: Expression | undefined): Diagnostic => fromExpr(d, expr, ctx, undefined, e.name);

  // Arguments: expressions, except that a final `...` argument expands into one value per element.
  type Arg = { expr: Expression; value?: Value };
  let args: Arg[] = e.args.map((expr) => ({ expr }));
  if (e.expandFinal && args.length > 0) {
    const last = e.args[e.args.length - 1] as Expression;
    const ev = evaluate(last, ctx);
    diags.push(...ev.diagnostics);
    if (hasErrors(ev.diagnostics)) return { value: DynamicVal, diagnostics: diags };
    const v = ev.value;
    const k = v.type.kind;
    if (k === "dynamic" || k === "tuple" || k === "list" || k === "set") {
      if (v.kind === "null") {
        diags.push(callDiag(errorDiag("Invalid expanding argument value", "The expanding argument (indicated by ...) must not be null.", last.range, e.range), last));
        return { value: DynamicVal, diagnostics: diags };
      }
      if (k === "dynamic" || v.kind === "unknown") return { value: DynamicVal, diagnostics: diags };
      const [plain, marks] = unmark(v);
      args = [...args.slice(0, -1), ...elementPairs(plain).map(([, el]) => ({ expr: last, value: withMarks(el, marks) }))];
    } else {
      diags.push(
        callDiag(
          errorDiag("Invalid expanding argument value", "The expanding argument (indicated by ...) must be of a tuple, list, or set type.", last.range, e.range),
          last,
        ),
      );
      return { value: DynamicVal, diagnostics: diags };
    }
  }

  if (args.length < params.length) {
    const missing = params[args.length];
    const qual = varParam ? " at least" : "";
    diags.push(
      callDiag(
        errorDiag(
          "Not enough function arguments",
          `Function ${JSON.stringify(e.name)} expects${qual} ${params.length} argument(s). Missing value for ${JSON.stringify(missing?.name ?? "")}.`,
          e.closeParenRange,
          e.range,
        ),
        e,
      ),
    );
    return { value: DynamicVal, diagnostics: diags };
  }
  if (!varParam && args.length > params.length) {
    const extra = args[params.length] as Arg;
    diags.push(
      callDiag(
        errorDiag("Too many function arguments", `Function ${JSON.stringify(e.name)} expects only ${params.length} argument(s).`, startRange(extra.expr), e.range),
        e,
      ),
    );
    return { value: DynamicVal, diagnostics: diags };
  }

  if (fn instanceof ClosureFunc) {
    const closures: ExpressionClosure[] = args.map((a) =>
      a.value !== undefined ? { kind: "value", value: a.value, range: a.expr.range } : { kind: "expr", expr: a.expr, ctx },
    );
    const r = fn.run(closures);
    if (r.ok) return { value: r.value, diagnostics: diags };
    diags.push(callFailure(e, fn, args, r.error, ctx));
    return { value: DynamicVal, diagnostics: diags };
  }

  const vals: Value[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Arg;
    const p = params[i] ?? varParam;
    let v: Value;
    if (a.value !== undefined) v = a.value;
    else v = collect(evaluate(a.expr, ctx), diags);
    if (p) {
      const c = convert(v, p.type);
      if (!c.ok) {
        // An expanded element stands for a literal value: there is no expression to read values from.
        diags.push(
          callDiag(
            errorDiag("Invalid function argument", `Invalid value for ${JSON.stringify(p.name)} parameter: ${c.error.message}.`, startRange(a.expr), e.range),
            a.value === undefined ? a.expr : undefined,
          ),
        );
        v = unknownVal(p.type);
      } else v = c.value;
    }
    vals.push(v);
  }
  if (hasErrors(diags)) return { value: DynamicVal, diagnostics: diags };

  const r = fn.call(vals);
  if (r.ok) return { value: r.value, diagnostics: diags };
  diags.push(callFailure(e, fn, args, r.error, ctx));
  return { value: DynamicVal, diagnostics: diags };
}

function callFailure(
  e: FunctionCallExpr,
  fn: Func,
  args: ReadonlyArray<{ expr: Expression; value?: Value }>,
  err: { kind: "arg"; index: number; message: string } | { kind: "call"; message: string },
  ctx: EvalContext,
): Diagnostic {
  let d: Diagnostic;
  let about: Expression | undefined = e;
  if (err.kind === "arg") {
    const p = fn.params[err.index] ?? fn.varParam;
    const arg = args[err.index];
    const argExpr = arg?.expr;
    if (p && argExpr) {
      d = errorDiag("Invalid function argument", `Invalid value for ${JSON.stringify(p.name)} parameter: ${err.message}.`, startRange(argExpr), e.range);
      about = arg.value === undefined ? argExpr : undefined;
    } else if (p) {
      d = errorDiag("Invalid function argument", `Invalid value for ${JSON.stringify(p.name)} parameter: ${err.message}.`, e.range);
    } else {
      d = errorDiag("Error in function call", `Call to function ${JSON.stringify(e.name)} failed: ${err.message}.`, callStartRange(e), e.range);
    }
  } else {
    d = errorDiag("Error in function call", `Call to function ${JSON.stringify(e.name)} failed: ${err.message}.`, callStartRange(e), e.range);
  }
  callErrors.set(d, { name: e.name, message: err.message });
  return fromExpr(d, about, ctx, undefined, e.name);
}

function callStartRange(e: FunctionCallExpr): Range {
  return rangeBetween(e.nameRange, e.openParenRange);
}

function unknownFunction(e: FunctionCallExpr, ctx: EvalContext): Diagnostic {
  if (!ctx.hasFunctions()) return errorDiag("Function calls not allowed", "Functions may not be called here.", e.range);
  let d: Diagnostic;
  const sep = e.name.lastIndexOf("::");
  if (sep >= 0) {
    const namespace = e.name.slice(0, sep + 2);
    const name = e.name.slice(sep + 2);
    const inNamespace = ctx.functionNames().filter((n) => n.startsWith(namespace));
    if (inNamespace.length === 0) {
      d = errorDiag("Call to unknown function", `There are no functions in namespace ${JSON.stringify(namespace)}.`, e.nameRange, e.range);
    } else {
      const s = nameSuggestion(e.name, inNamespace);
      const hint = s ? ` Did you mean ${JSON.stringify(s)}?` : "";
      d = errorDiag("Call to unknown function", `There is no function named ${JSON.stringify(name)} in namespace ${namespace}.${hint}`, e.nameRange, e.range);
    }
    unknownFunctionDiags.set(d, { name, namespace });
    return d;
  }
  const s = nameSuggestion(e.name, ctx.functionNames());
  const hint = s ? ` Did you mean ${JSON.stringify(s)}?` : "";
  d = errorDiag("Call to unknown function", `There is no function named ${JSON.stringify(e.name)}.${hint}`, e.nameRange, e.range);
  unknownFunctionDiags.set(d, { name: e.name, namespace: "" });
  return d;
}

/** HCL's StartRange: where an expression begins, used as the subject of argument errors. */
/** HCL's StartRange (hcl/start_range.ts), under the name the evaluator's callers know. */
export const startRange: (e: Expression) => Range = exprStartRange;

// ---------------------------------------------------------------------------------------------
// Conditionals

const NULL_DYNAMIC = nullVal(DynamicPseudoType);

function evalConditional(e: ConditionalExpr, ctx: EvalContext): EvalResult {
  const t = evaluate(e.trueResult, ctx);
  const f = evaluate(e.falseResult, ctx);
  const diags: Diagnostic[] = [];
  let resultType: Type | undefined = DynamicPseudoType;
  let convTrue: Conversion | undefined;
  let convFalse: Conversion | undefined;
  if (rawEquals(t.value, NULL_DYNAMIC)) {
    resultType = f.value.type;
    convTrue = getConversionUnsafe(DynamicPseudoType, resultType);
  } else if (rawEquals(f.value, NULL_DYNAMIC)) {
    resultType = t.value.type;
    convFalse = getConversionUnsafe(DynamicPseudoType, resultType);
  } else if (t.value.type.kind === "dynamic" || f.value.type.kind === "dynamic") {
    // Passing through: nothing to unify.
  } else {
    const u = unifyUnsafe([t.value.type, f.value.type]);
    if (!u) resultType = undefined;
    else {
      resultType = u.type;
      if (!typeEquals(t.value.type, u.type)) convTrue = getConversionUnsafe(t.value.type, u.type);
      if (!typeEquals(f.value.type, u.type)) convFalse = getConversionUnsafe(f.value.type, u.type);
    }
  }
  if (!resultType) {
    return {
      value: DynamicVal,
      diagnostics: [
        fromExpr(
          errorDiag(
            "Inconsistent conditional result types",
            `The true and false result expressions must have consistent types. ${describeConditionalTypeMismatch(t.value.type, f.value.type)}.`,
            rangeBetween(e.trueResult.range, e.falseResult.range),
            e.range,
          ),
          e,
          ctx,
        ),
      ],
    };
  }

  const cond = collect(evaluate(e.condition, ctx), diags);
  if (cond.kind === "null") {
    diags.push(fromExpr(errorDiag("Null condition", "The condition value is null. Conditions must either be true or false.", e.condition.range, e.range), e.condition, ctx));
    return { value: unknownVal(resultType), diagnostics: diags };
  }
  if (cond.kind === "unknown") {
    return { value: unknownConditionalResult(cond, t.value, f.value, resultType), diagnostics: diags };
  }
  const cb = convert(cond, BoolType);
  if (!cb.ok) {
    diags.push(fromExpr(errorDiag("Incorrect condition type", "The condition expression must be of type bool.", e.condition.range, e.range), e.condition, ctx));
    return { value: unknownVal(resultType), diagnostics: diags };
  }
  const [cbv] = unmark(cb.value);
  const chosen = cbv.kind === "bool" && cbv.value;
  const arm = chosen ? t : f;
  const conv = chosen ? convTrue : convFalse;
  diags.push(...arm.diagnostics);
  let out = arm.value;
  if (conv) {
    const c = conv(out);
    if (!c.ok) {
      const armExpr = chosen ? e.trueResult : e.falseResult;
      diags.push(
        fromExpr(
          errorDiag("Inconsistent conditional result types", `The ${chosen ? "true" : "false"} result value has the wrong type: ${c.error.message}.`, armExpr.range, e.range),
          armExpr,
          ctx,
        ),
      );
      out = unknownVal(resultType);
    } else out = c.value;
  }
  // The result carries the marks of the condition and of both arms, whichever was chosen (as
  // terraform console shows: `false ? sensitive(1) : 2` is sensitive).
  return { value: withMarks(out, cond.marks, t.value.marks, f.value.marks), diagnostics: diags };
}

/** The refined unknown result of a conditional whose condition is not yet known (as HCL). */
function unknownConditionalResult(cond: Value, t: Value, f: Value, resultType: Type): Value {
  const marks = [cond.marks, t.marks, f.marks];
  const [tp] = unmark(t);
  const [fp] = unmark(f);
  if (tp.kind === "number" && fp.kind === "number") {
    const gt = tp.value.cmp(fp.value) > 0;
    const lo = gt ? fp.value : tp.value;
    const hi = gt ? tp.value : fp.value;
    return withMarks(refine(unknownVal(NumberType)).numberRangeLowerBound(lo, true).numberRangeUpperBound(hi, true).notNull().newValue(), ...marks);
  }
  if (
    (tp.kind === "list" || tp.kind === "set" || tp.kind === "map") &&
    (fp.kind === "list" || fp.kind === "set" || fp.kind === "map") &&
    typeEquals(tp.type, fp.type)
  ) {
    const tl = "attrs" in tp ? tp.attrs.size : tp.elements.length;
    const fl = "attrs" in fp ? fp.attrs.size : fp.elements.length;
    const lo = Math.min(tl, fl);
    const hi = Math.max(tl, fl);
    return withMarks(refine(unknownVal(resultType)).collectionLengthLowerBound(lo).collectionLengthUpperBound(hi).notNull().newValue(), ...marks);
  }
  let ret: Value = unknownVal(resultType);
  if (notNullRange(tp) && notNullRange(fp)) ret = refine(ret).notNull().newValue();
  return withMarks(ret, ...marks);
}

function notNullRange(v: Value): boolean {
  if (v.kind === "null") return false;
  if (v.kind === "unknown") return v.refinement.notNull;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Operators

const OPERAND_TYPE: Record<BinaryOpExpr["op"], Type | undefined> = {
  "||": BoolType,
  "&&": BoolType,
  "==": undefined,
  "!=": undefined,
  "<": NumberType,
  "<=": NumberType,
  ">": NumberType,
  ">=": NumberType,
  "+": NumberType,
  "-": NumberType,
  "*": NumberType,
  "/": NumberType,
  "%": NumberType,
};

const ARITHMETIC = new Set<BinaryOpExpr["op"]>(["+", "-", "*", "/", "%"]);

function evalBinary(e: BinaryOpExpr, ctx: EvalContext): EvalResult {
  // A left-leaning chain (`a + b + c + …`, however long) is folded in a loop, not by recursion,
  // so that thousands of terms do not exhaust the stack.
  const spine: BinaryOpExpr[] = [];
  let leftmost: Expression = e;
  while (leftmost.kind === "BinaryOp") {
    spine.push(leftmost);
    leftmost = leftmost.lhs;
  }
  let acc = evaluate(leftmost, ctx);
  for (let i = spine.length - 1; i >= 0; i--) acc = binaryStep(spine[i] as BinaryOpExpr, acc, ctx);
  return acc;
}

/** One operation of a chain, its left operand already evaluated. */
function binaryStep(e: BinaryOpExpr, l: EvalResult, ctx: EvalContext): EvalResult {
  const want = OPERAND_TYPE[e.op];
  // The operation's result type (HCL's Operation.Type): comparisons yield bool, not number.
  const resultType = ARITHMETIC.has(e.op) ? NumberType : BoolType;
  const r = evaluate(e.rhs, ctx);
  // As HCL, the operands' own diagnostics come before those about their types.
  const diags: Diagnostic[] = [...l.diagnostics, ...r.diagnostics];
  if (want) {
    const lc = convert(l.value, want);
    if (!lc.ok) diags.push(fromExpr(errorDiag("Invalid operand", `Unsuitable value for left operand: ${lc.error.message}.`, e.lhs.range, e.range), e.lhs, ctx));
    const rc = convert(r.value, want);
    if (!rc.ok) diags.push(fromExpr(errorDiag("Invalid operand", `Unsuitable value for right operand: ${rc.error.message}.`, e.rhs.range, e.range), e.rhs, ctx));
  }
  if (hasErrors(diags)) return { value: unknownVal(resultType), diagnostics: diags };
  const res = binaryOp(e.op, l.value, r.value);
  if (!res.ok) {
    diags.push(fromExpr(errorDiag(res.summary, res.detail, e.range), e, ctx));
    return { value: unknownVal(resultType), diagnostics: diags };
  }
  return { value: res.value, diagnostics: diags };
}

function evalUnary(e: UnaryOpExpr, ctx: EvalContext): EvalResult {
  const want = e.op === "-" ? NumberType : BoolType;
  const r = evaluate(e.operand, ctx);
  const diags = [...r.diagnostics];
  const c = convert(r.value, want);
  if (!c.ok) diags.push(fromExpr(errorDiag("Invalid operand", `Unsuitable value for unary operand: ${c.error.message}.`, e.operand.range, e.range), e.operand, ctx));
  if (hasErrors(diags)) return { value: unknownVal(want), diagnostics: diags };
  const res = unaryOp(e.op, r.value);
  if (!res.ok) {
    diags.push(fromExpr(errorDiag(res.summary, res.detail, e.range), e, ctx));
    return { value: unknownVal(want), diagnostics: diags };
  }
  return { value: res.value, diagnostics: diags };
}

// ---------------------------------------------------------------------------------------------
// Collections

function evalObjectKey(e: ObjectConsKeyExpr, ctx: EvalContext): EvalResult {
  if (!e.forceNonLiteral) {
    if (e.wrapped.kind === "ScopeTraversal" && e.wrapped.traversal.length > 1) {
      return {
        value: DynamicVal,
        diagnostics: [
          errorDiag(
            "Ambiguous attribute key",
            "If this expression is intended to be a reference, wrap it in parentheses. If it's instead intended as a literal name containing periods, wrap it in quotes to create a string literal.",
            e.wrapped.range,
          ),
        ],
      };
    }
    const kw = exprAsKeyword(e.wrapped);
    if (kw !== "") return ok(stringVal(kw));
  }
  return evaluate(e.wrapped, ctx);
}

function evalObject(e: ObjectConsExpr, ctx: EvalContext): EvalResult {
  const diags: Diagnostic[] = [];
  const attrs = new Map<string, Value>();
  const marks: Marks[] = [];
  let known = true;
  for (const item of e.items) {
    const k = evaluate(item.key, ctx);
    diags.push(...k.diagnostics);
    const v = collect(evaluate(item.value, ctx), diags);
    if (hasErrors(k.diagnostics)) {
      known = false;
      continue;
    }
    if (k.value.kind === "null") {
      diags.push(fromExpr(errorDiag("Null value as key", "Can't use a null value as a key.", item.value.range), item.key, ctx));
      known = false;
      continue;
    }
    const [key, km] = unmark(k.value);
    marks.push(km);
    const ks = convert(key, StringType);
    if (!ks.ok) {
      diags.push(fromExpr(errorDiag("Incorrect key type", `Can't use this value as a key: ${ks.error.message}.`, item.key.range), item.key, ctx));
      known = false;
      continue;
    }
    if (ks.value.kind !== "string") {
      known = false;
      continue;
    }
    // A later item with the same key replaces the earlier one, as in HCL.
    attrs.set(ks.value.value, v);
  }
  if (!known) return { value: DynamicVal, diagnostics: diags };
  return { value: withMarks(objectVal(attrs), ...marks), diagnostics: diags };
}

function evalIndex(e: IndexExpr, ctx: EvalContext): EvalResult {
  const diags: Diagnostic[] = [];
  const coll = collect(evaluate(e.collection, ctx), diags);
  const key = collect(evaluate(e.key, ctx), diags);
  const r = index(coll, key);
  if (!r.ok) {
    diags.push(fromExpr(errorDiag(r.summary, r.detail, e.bracketRange), e, ctx));
    return { value: DynamicVal, diagnostics: diags };
  }
  return { value: r.value, diagnostics: diags };
}

function isIterable(v: Value): boolean {
  const k = v.type.kind;
  return k === "list" || k === "set" || k === "map" || k === "tuple" || k === "object";
}

function evalFor(e: ForExpr, ctx: EvalContext): EvalResult {
  const diags: Diagnostic[] = [];
  const marks: Marks[] = [];
  const collRaw = collect(evaluate(e.collExpr, ctx), diags);
  if (collRaw.kind === "null") {
    diags.push(
      fromExpr(errorDiag("Iteration over null value", "A null value cannot be used as the collection in a 'for' expression.", e.collExpr.range, e.range), e.collExpr, ctx),
    );
    return { value: DynamicVal, diagnostics: diags };
  }
  if (collRaw.type.kind === "dynamic") return { value: DynamicVal, diagnostics: diags };
  const [coll, collMarks] = unmark(collRaw);
  marks.push(collMarks);
  if (!isIterable(coll)) {
    diags.push(
      fromExpr(
        errorDiag(
          "Iteration over non-iterable value",
          `A value of type ${friendlyName(coll.type)} cannot be used as the collection in a 'for' expression.`,
          e.collExpr.range,
          e.range,
        ),
        e.collExpr,
        ctx,
      ),
    );
    return { value: DynamicVal, diagnostics: diags };
  }
  if (coll.kind === "unknown") return { value: DynamicVal, diagnostics: diags };

  const scope = (k: Value, v: Value): EvalContext => {
    const vars = new Map<string, Value>();
    if (e.keyVar) vars.set(e.keyVar, k);
    vars.set(e.valVar, v);
    return ctx.child(vars);
  };

  // An early check of the condition with unknown symbols catches a wrongly-typed `if` once.
  if (e.condExpr) {
    const c = evaluate(e.condExpr, scope(DynamicVal, DynamicVal));
    diags.push(...c.diagnostics);
    if (c.value.kind === "null") {
      diags.push(fromExpr(errorDiag("Condition is null", "The value of the 'if' clause must not be null.", e.condExpr.range, e.range), e.condExpr, ctx));
      return { value: DynamicVal, diagnostics: diags };
    }
    const cb = convert(c.value, BoolType);
    if (!cb.ok) {
      diags.push(fromExpr(errorDiag("Invalid 'for' condition", `The 'if' clause value is invalid: ${cb.error.message}.`, e.condExpr.range, e.range), e.condExpr, ctx));
      return { value: DynamicVal, diagnostics: diags };
    }
    if (hasErrors(c.diagnostics)) return { value: DynamicVal, diagnostics: diags };
  }

  let known = true;
  /** Evaluates the `if` clause: true to include, false to skip, undefined when the result is unknown. */
  const include = (child: EvalContext): boolean | undefined => {
    if (!e.condExpr) return true;
    const condExpr = e.condExpr;
    const c = evaluate(condExpr, child);
    diags.push(...c.diagnostics);
    const raw = c.value;
    if (raw.kind === "null") {
      if (known) diags.push(fromExpr(errorDiag("Invalid 'for' condition", "The value of the 'if' clause must not be null.", condExpr.range, e.range), condExpr, child));
      known = false;
      return undefined;
    }
    const cb = convert(raw, BoolType);
    if (!cb.ok) {
      if (known) diags.push(fromExpr(errorDiag("Invalid 'for' condition", `The 'if' clause value is invalid: ${cb.error.message}.`, condExpr.range, e.range), condExpr, child));
      known = false;
      return undefined;
    }
    if (cb.value.kind === "unknown") {
      known = false;
      return undefined;
    }
    const [b, bm] = unmark(cb.value);
    marks.push(bm);
    return b.kind === "bool" && b.value;
  };

  const pairs = elementPairs(coll);
  if (e.keyExpr) {
    const vals = new Map<string, Value>();
    const groups = new Map<string, Value[]>();
    for (const [k, v] of pairs) {
      const child = scope(k, v);
      const inc = include(child);
      if (inc !== true) continue;
      const kr = evaluate(e.keyExpr, child);
      diags.push(...kr.diagnostics);
      const keyRaw = kr.value;
      if (keyRaw.kind === "null") {
        if (known) diags.push(fromExpr(errorDiag("Invalid object key", "Key expression in 'for' expression must not produce a null value.", e.keyExpr.range, e.range), e.keyExpr, child));
        known = false;
        continue;
      }
      if (keyRaw.kind === "unknown") {
        known = false;
        continue;
      }
      const kc = convert(keyRaw, StringType);
      if (!kc.ok) {
        if (known) diags.push(fromExpr(errorDiag("Invalid object key", `The key expression produced an invalid result: ${kc.error.message}.`, e.keyExpr.range, e.range), e.keyExpr, child));
        known = false;
        continue;
      }
      const [key, km] = unmark(kc.value);
      marks.push(km);
      const ks = key.kind === "string" ? key.value : "";
      const val = collect(evaluate(e.valExpr, child), diags);
      if (e.group) {
        const g = groups.get(ks);
        if (g) g.push(val);
        else groups.set(ks, [val]);
      } else if (vals.has(ks)) {
        diags.push(
          fromExpr(
            errorDiag(
              "Duplicate object key",
              `Two different items produced the key ${JSON.stringify(ks)} in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.`,
              e.keyExpr.range,
              e.range,
            ),
            e.keyExpr,
            child,
          ),
        );
      } else vals.set(ks, val);
    }
    if (!known) return { value: DynamicVal, diagnostics: diags };
    if (e.group) for (const [k, g] of groups) vals.set(k, tupleVal(g));
    return { value: withMarks(objectVal(vals), ...marks), diagnostics: diags };
  }

  const out: Value[] = [];
  for (const [k, v] of pairs) {
    const child = scope(k, v);
    const inc = include(child);
    if (inc !== true) continue;
    out.push(collect(evaluate(e.valExpr, child), diags));
  }
  if (!known) return { value: DynamicVal, diagnostics: diags };
  return { value: withMarks(tupleVal(out), ...marks), diagnostics: diags };
}

function evalSplat(e: SplatExpr, ctx: EvalContext): EvalResult {
  const src = evaluate(e.source, ctx);
  const diags = [...src.diagnostics];
  if (hasErrors(diags)) {
    // The each expression is checked for more problems, with the symbol left unknown.
    diags.push(...evaluate(e.item, ctx).diagnostics);
    return { value: DynamicVal, diagnostics: diags };
  }
  let source = src.value;
  let ty = source.type;
  const autoUpgrade = !(ty.kind === "tuple" || ty.kind === "list" || ty.kind === "set");
  if (source.kind === "null") {
    // The marks stay on the result: `sensitive(null)[*]` is as sensitive as its source.
    if (autoUpgrade) return { value: withMarks(EmptyTupleVal, source.marks), diagnostics: diags };
    diags.push(
      fromExpr(
        errorDiag(
          "Splat of null value",
          "Splat expressions (with the * symbol) cannot be applied to null sequences.",
          e.source.range,
          rangeBetween(e.source.range, e.markerRange),
        ),
        e.source,
        ctx,
      ),
    );
    return { value: DynamicVal, diagnostics: diags };
  }
  if (ty.kind === "dynamic") return { value: DynamicVal, diagnostics: diags };

  let upgradedUnknown = false;
  if (autoUpgrade) {
    if (source.kind === "unknown" && !source.refinement.notNull) upgradedUnknown = true;
    // The implied tuple carries the source's marks (hclsyntax unmarks, wraps, re-marks), so a
    // sensitive value stays sensitive through the splat and whatever reads it next.
    const [inner, innerMarks] = unmark(source);
    source = withMarks(tupleVal([inner]), innerMarks);
    ty = source.type;
  }

  const resultType = (): { type: Type; diagnostics: Diagnostic[] } => {
    const d: Diagnostic[] = [];
    if (ty.kind === "list" || ty.kind === "set") {
      const v = collect(evaluate(e.each, ctx.withSymbol(e.item, unknownVal(ty.element))), d);
      return { type: listOf(v.type), diagnostics: d };
    }
    if (ty.kind === "tuple") {
      const ts = ty.elements.map((et) => collect(evaluate(e.each, ctx.withSymbol(e.item, unknownVal(et))), d).type);
      return { type: tupleOf(ts), diagnostics: d };
    }
    return { type: DynamicPseudoType, diagnostics: d };
  };

  if (source.kind === "unknown") {
    const rt = resultType();
    diags.push(...rt.diagnostics);
    let ret: Value = unknownVal(rt.type);
    if (rt.type.kind !== "dynamic") ret = refine(ret).notNull().newValue();
    if (rt.type.kind === "list" && (source.type.kind === "list" || source.type.kind === "set")) {
      const r = source.refinement;
      let b = refine(ret).collectionLengthLowerBound(r.lengthLower ?? 0);
      if (r.lengthUpper !== undefined) b = b.collectionLengthUpperBound(r.lengthUpper);
      ret = b.newValue();
    }
    return { value: withMarks(ret, source.marks), diagnostics: diags };
  }

  const [plain, marks] = unmark(source);
  const vals: Value[] = [];
  let known = true;
  for (const [, item] of elementPairs(plain)) {
    const r = evaluate(e.each, ctx.withSymbol(e.item, item));
    diags.push(...r.diagnostics);
    if (hasErrors(r.diagnostics)) known = false;
    vals.push(r.value);
  }
  if (upgradedUnknown) return { value: DynamicVal, diagnostics: diags };
  if (!known) return { value: unknownVal(resultType().type), diagnostics: diags };
  if (ty.kind === "list" || ty.kind === "set") {
    if (vals.length === 0) {
      const rt = resultType();
      diags.push(...rt.diagnostics);
      return { value: listValEmpty(rt.type.kind === "list" ? rt.type.element : DynamicPseudoType), diagnostics: diags };
    }
    // Items evaluated from same-typed elements normally share a type; if not, keep them as a tuple.
    return { value: withMarks(canListVal(vals) ? listVal(vals) : tupleVal(vals), marks), diagnostics: diags };
  }
  return { value: withMarks(tupleVal(vals), marks), diagnostics: diags };
}
