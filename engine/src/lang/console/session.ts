// One console session (OpenTofu's repl.Session): each line is parsed as an expression, its
// references are checked against the root module's scope, and the value is printed as
// `tofu console` prints it. Errors come back as the first diagnostic, with all of them kept for
// callers that render them.
import { copyDiagnostic, hasErrors, parseExpression, type Diagnostic, type Traverser } from "../../hcl/index.js";
import { formatValue, objectVal, stringVal, unmarkDeepWithPaths, type Func, type Value } from "../../values/index.js";
import { EvalContext, evalFunctions, evaluate, expressionVariables, unknownFunctionCall } from "../eval/index.js";
import { addCoreAliases, builtinFunctions } from "../functions/index.js";
import type { ConsoleAnswer, ConsoleSession, ConsoleSessionOptions } from "./index.js";
import { checkReference, malformedReference } from "./references.js";
import { TYPE_MARK, typeFunc, typeOfTypeValue } from "./typestring.js";

export const CONSOLE_FILENAME = "<console-input>";

export const CONSOLE_HELP = `The OpenTofu console allows you to experiment with OpenTofu interpolations.
You may access resources in the state (if you have one) just as you would
from a configuration. For example: "aws_instance.foo.id" would evaluate
to the ID of "aws_instance.foo" if it exists in your state.

Type in the interpolation to test and hit <enter> to see the result.

To exit the console, type "exit" and hit <enter>, or use Control-C or
Control-D.`;

/** The console's answer to a line, with every diagnostic (for rendering) and whether to exit. */
export interface ConsoleResult {
  readonly answer: ConsoleAnswer;
  readonly diagnostics: readonly Diagnostic[];
  readonly exit: boolean;
}

export interface FullConsoleSession extends ConsoleSession {
  handle(line: string): ConsoleResult;
}

/** The function table of a root-module scope in console mode: builtins, evaluator functions, `core::` aliases, `type`. */
export function consoleFunctions(opts: ConsoleSessionOptions): Map<string, Func> {
  const table = builtinFunctions(opts.functionContext);
  for (const [n, f] of Object.entries(evalFunctions(opts.functionContext, () => table))) table.set(n, f);
  // As OpenTofu's Scope.Functions in console mode: `type` instead of `plantimestamp` (there is no
  // plan to stamp), then every function also under `core::`.
  table.set("type", typeFunc);
  table.delete("plantimestamp");
  return addCoreAliases(table);
}

export function createConsoleSession(opts: ConsoleSessionOptions): FullConsoleSession {
  const functions = opts.functions ? opts.functions(consoleFunctions(opts)) : consoleFunctions(opts);
  const variables = opts.variables ?? {};
  const locals = opts.locals ?? {};
  const names = { variables: new Set(Object.keys(variables)), locals: new Set(Object.keys(locals)) };
  const scope = new Map<string, Value>([
    ["var", objectVal(variables)],
    ["local", objectVal(locals)],
    [
      "path",
      objectVal({ module: stringVal(opts.paths?.module ?? "."), root: stringVal(opts.paths?.root ?? "."), cwd: stringVal(opts.paths?.cwd ?? opts.functionContext.fs.abs(".")) }),
    ],
    ["terraform", objectVal({ workspace: stringVal(opts.workspace ?? "default") })],
  ]);
  const ctx = new EvalContext(scope, functions);

  const handle = (line: string): ConsoleResult => {
    const trimmed = line.trim();
    if (trimmed === "") return done({ ok: true, output: "" }, []);
    if (trimmed === "exit") return { answer: { ok: true, output: "" }, diagnostics: [], exit: true };
    if (trimmed === "help") return done({ ok: true, output: CONSOLE_HELP }, []);
    return evalLine(line);
  };

  const evalLine = (line: string): ConsoleResult => {
    const parsed = parseExpression(line, CONSOLE_FILENAME);
    if (hasErrors(parsed.diagnostics)) return failed(parsed.diagnostics);
    const refDiags: Diagnostic[] = [];
    const traversals = expressionVariables(parsed.result);
    const objects = opts.objects ? traversals.filter(isObjectReference) : [];
    for (const t of traversals) refDiags.push(...(objects.includes(t) ? malformedReference(t) : checkReference(t, names)));
    let lineCtx = ctx;
    if (opts.objects && objects.length > 0) {
      const o = opts.objects.context(objects);
      refDiags.push(...o.diagnostics);
      lineCtx = ctx.child(o.variables);
    }
    if (hasErrors(refDiags)) return failed(refDiags);
    const r = evaluate(parsed.result, lineCtx);
    const diags = r.diagnostics.map(enhanceFunctionDiagnostic);
    if (hasErrors(diags)) return failed(diags);
    const v = r.value;
    const invalidTypeUse = () =>
      failed([{ severity: "error", summary: "Invalid use of type function", detail: 'The console-only "type" function cannot be used as part of an expression.' }]);
    if (v.marks.has(TYPE_MARK)) {
      const t = typeOfTypeValue(v);
      if (t && v.kind === "string") return done({ ok: true, output: v.value }, diags);
      return invalidTypeUse();
    }
    // A type() result inside a collection (`[type(1)]`) is a use in an expression too.
    if (unmarkDeepWithPaths(v)[1].some((p) => p.marks.has(TYPE_MARK))) return invalidTypeUse();
    return done({ ok: true, output: formatValue(v) }, diags);
  };

  return {
    handle,
    evaluate: (line) => handle(line).answer,
  };
}

/** Names the session's own scope does not hold: module calls, data sources, resource types. */
const OWN_ROOTS = new Set(["var", "local", "path", "terraform", "count", "each", "self", "template", "lazy", "arg"]);

function isObjectReference(t: readonly Traverser[]): boolean {
  const root = t[0];
  return root?.kind === "Root" && !OWN_ROOTS.has(root.name);
}

function done(answer: ConsoleAnswer, diagnostics: readonly Diagnostic[]): ConsoleResult {
  return { answer, diagnostics, exit: false };
}

function failed(diags: readonly Diagnostic[]): ConsoleResult {
  const first = diags.find((d) => d.severity === "error") as Diagnostic;
  return { answer: { ok: false, summary: first.summary, detail: first.detail }, diagnostics: diags, exit: false };
}

/** OpenTofu's enhanceFunctionDiags: clearer texts for unknown namespaced functions. */
function enhanceFunctionDiagnostic(d: Diagnostic): Diagnostic {
  const info = unknownFunctionCall(d);
  if (!info || !info.namespace.includes("::")) return d;
  if (info.namespace === "core::") {
    return copyDiagnostic(d, { summary: "Call to unknown function", detail: `There is no builtin (core::) function named ${JSON.stringify(info.name)}.` });
  }
  const m = /^([^:]*)::([^:]*)::$/.exec(info.namespace);
  if (!m || m[1] !== "provider") {
    return copyDiagnostic(d, { summary: "Invalid function format", detail: `Expected provider::<provider_name>::<function_name>, instead found "${info.namespace}${info.name}"` });
  }
  // The console's root module declares no providers, so no provider alias is known.
  return copyDiagnostic(d, { summary: "Unknown function provider", detail: `Provider ${JSON.stringify(m[2])} does not exist within the required_providers of this module` });
}
