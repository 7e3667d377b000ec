// The built-in functions that evaluate expressions themselves, so they live with the evaluator:
// `try` and `can` (HCL's ext/tryfunc), `templatestring` (OpenTofu) and `templatefile`.
import { formatRange, parseTemplate, type Diagnostic, type Expression } from "../../hcl/index.js";
import {
  BoolType,
  goQuote,
  DynamicPseudoType,
  DynamicVal,
  False,
  Func,
  SENSITIVE,
  StringType,
  True,
  argError,
  callError,
  hasMark,
  isWhollyKnown,
  refine,
  unknownVal,
  unmark,
  withMarks,
  type FunctionResult,
  type Value,
} from "../../values/index.js";
import type { FunctionContext } from "../functions/index.js";
import { ClosureFunc, type ExpressionClosure } from "./closure.js";
import { EvalContext } from "./context.js";
import { evaluate, functionCallError, traverseAbs, type EvalResult } from "./expression.js";
import { isAbs, join } from "../functions/filepath.js";
import { expressionVariables } from "./variables.js";

/**
 * `try`, `can`, `templatestring` and `templatefile`. `table` gives the complete function table
 * (builtins plus these), which templates may call.
 */
export function evalFunctions(ctx: FunctionContext, table: () => ReadonlyMap<string, Func>): Record<string, Func> {
  return {
    try: tryFunc,
    can: canFunc,
    templatestring: templateStringFunc(table),
    templatefile: templateFileFunc(ctx, table, 0),
  };
}

// ---------------------------------------------------------------------------------------------
// try and can

function closureValue(c: ExpressionClosure): EvalResult {
  return c.kind === "value" ? { value: c.value, diagnostics: [] } : evaluate(c.expr, c.ctx);
}

/** Whether anything the expression reads is (or contains) an unknown value: then try/can must wait. */
function dependsOnUnknowns(c: ExpressionClosure): boolean {
  if (c.kind === "value") return false;
  for (const t of expressionVariables(c.expr)) {
    const r = traverseAbs(t, c.ctx);
    if (r.diagnostics.some((d) => d.severity === "error")) continue;
    if (!isWhollyKnown(r.value)) return true;
  }
  return false;
}

export const tryFunc = new ClosureFunc([], "expressions", (args) => {
  if (args.length === 0) return callError("at least one argument is required");
  const diags: Diagnostic[] = [];
  for (const arg of args) {
    if (dependsOnUnknowns(arg)) return { ok: true, value: DynamicVal };
    const r = closureValue(arg);
    diags.push(...r.diagnostics);
    if (r.diagnostics.some((d) => d.severity === "error")) continue;
    return { ok: true, value: r.value };
  }
  let msg = "no expression succeeded:\n";
  for (const d of diags) {
    msg += d.subject ? `- ${d.summary} (at ${formatRange(d.subject)})\n  ${d.detail}\n` : `- ${d.summary}\n  ${d.detail}\n`;
  }
  msg += "\nAt least one expression must produce a successful result";
  return callError(msg);
});

export const canFunc = new ClosureFunc(["expression"], undefined, (args) => {
  const arg = args[0] as ExpressionClosure;
  if (dependsOnUnknowns(arg)) return { ok: true, value: refine(unknownVal(BoolType)).notNull().newValue() };
  const r = closureValue(arg);
  return { ok: true, value: r.diagnostics.some((d) => d.severity === "error") ? False : True };
});

// ---------------------------------------------------------------------------------------------
// Templates

/** The file name OpenTofu gives templatestring's template (it shows in error positions). */
const TEMPLATE_STRING_FILENAME = "NoFileNeeded";
const TEMPLATE_MAX_RECURSION_DEPTH = 1024;
/** Marks an error that is a recursion limit still being rolled up through nested calls. */
const RECURSION_PREFIX = "\u0000templatefile recursion\u0000";

const IDENTIFIER = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}_-]*$/u;

/** hcl.Diagnostics.Error(): what a template's errors look like inside a function error. */
function diagnosticsError(diags: readonly Diagnostic[]): string {
  const one = (d: Diagnostic) => `${d.subject ? formatRange(d.subject) : "<nil>"}: ${d.summary}; ${d.detail}`;
  const first = diags[0];
  if (!first) return "no diagnostics";
  return diags.length === 1 ? one(first) : `${one(first)}, and ${diags.length - 1} other diagnostic(s)`;
}

function parseTmpl(src: string, filename: string): FunctionResult<Expression> {
  const r = parseTemplate(src, filename);
  if (r.diagnostics.some((d) => d.severity === "error")) return callError(diagnosticsError(r.diagnostics));
  return { ok: true, value: r.result };
}

/** OpenTofu's renderTemplate: checks the vars map, then evaluates the template with only those vars. */
function renderTemplate(expr: Expression, vars: Value, funcs: ReadonlyMap<string, Func>, showPositions: boolean): FunctionResult<Value> {
  const k = vars.type.kind;
  if (k !== "map" && k !== "object") return argError(1, "invalid vars value: must be a map");
  const table = new Map<string, Value>();
  if (vars.kind === "map" || vars.kind === "object") for (const [n, v] of vars.attrs) table.set(n, v);
  for (const n of table.keys()) {
    if (!IDENTIFIER.test(n)) {
      return argError(1, `invalid template variable name ${JSON.stringify(n)}: must start with a letter, followed by zero or more letters, digits, and underscores`);
    }
  }
  for (const t of expressionVariables(expr)) {
    const root = t[0];
    if (!root || root.kind !== "Root" || table.has(root.name)) continue;
    const where = !showPositions ? JSON.stringify(root.name) : `${JSON.stringify(root.name)}, referenced at ${formatRange(root.range)}`;
    return argError(1, `vars map does not contain key ${where}`);
  }
  // An unknown vars map has no attributes to offer: the result waits for it.
  if (vars.kind === "unknown") return { ok: true, value: DynamicVal };
  const r = evaluate(expr, new EvalContext(table, funcs));
  const errors = r.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) {
    for (const d of errors) {
      const ce = functionCallError(d);
      if (ce?.name === "templatefile" && ce.message.startsWith(RECURSION_PREFIX)) {
        const sources = JSON.parse(ce.message.slice(RECURSION_PREFIX.length)) as string[];
        return callError(RECURSION_PREFIX + JSON.stringify([...sources, d.subject ? formatRange(d.subject) : ""]));
      }
    }
    return callError(diagnosticsError(r.diagnostics));
  }
  return { ok: true, value: r.value };
}

function templateStringFunc(table: () => ReadonlyMap<string, Func>): Func {
  const render = (args: readonly Value[]): FunctionResult<Value> => {
    const [data, dataMarks] = unmark(args[0] as Value);
    const [vars] = unmark(args[1] as Value);
    if (data.kind !== "string") return { ok: true, value: DynamicVal };
    const expr = parseTmpl(data.value, TEMPLATE_STRING_FILENAME);
    if (!expr.ok) return expr;
    const r = renderTemplate(expr.value, vars, table(), false);
    return r.ok ? { ok: true, value: withMarks(r.value, dataMarks) } : r;
  };
  return new Func({
    params: [
      { name: "data", type: StringType, allowMarked: true },
      { name: "vars", type: DynamicPseudoType, allowMarked: true },
    ],
    type: (args) => {
      if ((args[0] as Value).kind === "unknown" || (args[1] as Value).kind === "unknown") return { ok: true, value: DynamicPseudoType };
      const r = render(args);
      return r.ok ? { ok: true, value: r.value.type } : r;
    },
    impl: (args) => {
      const r = render(args);
      if (!r.ok) return r;
      const [, varsMarks] = unmark(args[1] as Value);
      return { ok: true, value: withMarks(r.value, varsMarks) };
    },
  });
}

function templateFileFunc(ctx: FunctionContext, table: () => ReadonlyMap<string, Func>, depth: number): Func {
  const load = (path: Value): FunctionResult<Expression> => {
    if (depth > TEMPLATE_MAX_RECURSION_DEPTH) return callError(RECURSION_PREFIX + "[]");
    const [p, marks] = unmark(path);
    if (p.kind !== "string") return callError("path is unknown");
    const src = readTemplateFile(ctx, p.value, hasMark(path, SENSITIVE) || marks.has(SENSITIVE));
    if (!src.ok) return src;
    return parseTmpl(src.value, p.value);
  };
  // Inside a template, templatefile is this function one level deeper.
  const funcs = (): ReadonlyMap<string, Func> => {
    const out = new Map(table());
    out.set("templatefile", templateFileFunc(ctx, table, depth + 1));
    return out;
  };
  // JavaScript's stack is smaller than Go's: a template chain too deep for it counts as hitting
  // the recursion limit (with the same message) instead of crashing.
  const render = (expr: Expression, vars: Value): FunctionResult<Value> => {
    try {
      return renderTemplate(expr, vars, funcs(), true);
    } catch (e) {
      if (e instanceof RangeError) return callError(RECURSION_PREFIX + "[]");
      throw e;
    }
  };
  const finish = <T,>(r: FunctionResult<T>): FunctionResult<T> => {
    if (r.ok || r.error.kind !== "call" || !r.error.message.startsWith(RECURSION_PREFIX) || depth > 0) return r;
    const sources = JSON.parse(r.error.message.slice(RECURSION_PREFIX.length)) as string[];
    return callError(recursionMessage(sources));
  };
  return new Func({
    params: [
      { name: "path", type: StringType, allowMarked: true },
      { name: "vars", type: DynamicPseudoType },
    ],
    type: (args) => {
      if ((args[0] as Value).kind === "unknown" || (args[1] as Value).kind === "unknown") return { ok: true, value: DynamicPseudoType };
      const expr = load(args[0] as Value);
      if (!expr.ok) return finish(expr);
      const r = finish(render(expr.value, args[1] as Value));
      return r.ok ? { ok: true, value: r.value.type } : r;
    },
    impl: (args) => {
      const expr = load(args[0] as Value);
      if (!expr.ok) return finish(expr);
      const r = finish(render(expr.value, args[1] as Value));
      if (!r.ok) return r;
      const [, marks] = unmark(args[0] as Value);
      return { ok: true, value: withMarks(r.value, marks) };
    },
  });
}

/** OpenTofu's ErrorTemplateRecursionLimit text: the first sources, up to where they repeat. */
function recursionMessage(sources: readonly string[]): string {
  const trace: string[] = [];
  for (const s of sources.slice(0, 16)) {
    const looped = trace.includes(s);
    trace.push(s);
    if (looped) break;
  }
  return `maximum recursion depth ${TEMPLATE_MAX_RECURSION_DEPTH} reached in ${trace.join(", ")} ... `;
}

/** Reads a template as OpenTofu's `file` does: relative to the module directory, `~` expanded, UTF-8 only. */
function readTemplateFile(ctx: FunctionContext, given: string, sensitive: boolean): FunctionResult<string> {
  let path = given;
  if (path === "~" || path.startsWith("~/")) {
    const home = ctx.fs.home();
    if (home === undefined) return callError("failed to expand ~: user home directory is unknown");
    path = home + path.slice(1);
  }
  if (!isAbs(path)) path = join(ctx.baseDir, path);
  // OpenTofu quotes the path (%q) when the file is missing, but not in the UTF-8 error.
  const shown = sensitive ? "(sensitive value)" : path;
  let bytes: Uint8Array | undefined;
  try {
    bytes = ctx.fs.readFile(path);
  } catch (e) {
    return callError(e instanceof Error ? e.message : String(e));
  }
  if (bytes === undefined) {
    return argError(
      0,
      `no file exists at ${sensitive ? shown : goQuote(path)}; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource`,
    );
  }
  try {
    return { ok: true, value: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return callError(
      `contents of ${shown} are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead`,
    );
  }
}
