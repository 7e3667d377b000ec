// The parts of a root module the console needs until the configuration loader exists: `variable`
// declarations (type with optional() defaults, default, sensitive, nullable) and `locals`, and
// the input variable values from -var, -var-file, TF_VAR_* and *.tfvars files, combined with
// OpenTofu's precedence and conversion rules. Browser-safe: callers pass file contents in.
import {
  errorDiag,
  formatRange,
  hasErrors,
  parseConfig,
  parseExpression,
  type Attribute,
  type Diagnostic,
  type Expression,
  type Range,
} from "../../hcl/index.js";
import {
  DynamicPseudoType,
  DynamicVal,
  SENSITIVE,
  applyDefaults,
  convert,
  decodeJSONImplied,
  mark,
  objectVal,
  stringVal,
  typeConstraintFromText,
  unknownVal,
  type Defaults,
  type Func,
  type Type,
  type Value,
} from "../../values/index.js";
import { EvalContext, evaluate, expressionVariables } from "../eval/index.js";

export interface SourceFile {
  readonly filename: string;
  readonly source: string;
}

export interface VariableDeclaration {
  readonly name: string;
  readonly type: Type;
  readonly defaults: Defaults | undefined;
  readonly default: Value | undefined;
  readonly sensitive: boolean;
  readonly nullable: boolean;
  readonly declRange: Range;
}

export interface RootModule {
  readonly variables: ReadonlyMap<string, VariableDeclaration>;
  readonly locals: ReadonlyMap<string, Expression>;
}

/** A value given for a variable, in the order of precedence it was found (later wins). */
export interface RawVariableValue {
  readonly name: string;
  /** "cli" for -var, "env" for TF_VAR_, "file" for tfvars values. */
  readonly source: "cli" | "env" | "file";
  /** Literal text (-var, env) or an already-parsed expression (tfvars). */
  readonly raw: { kind: "text"; text: string } | { kind: "expr"; expr: Expression } | { kind: "value"; value: Value };
}

/** Reads `variable` and `locals` blocks from the module's native-syntax files. */
export function loadRootModule(files: readonly SourceFile[]): { module: RootModule; diagnostics: Diagnostic[] } {
  const diags: Diagnostic[] = [];
  const variables = new Map<string, VariableDeclaration>();
  const locals = new Map<string, Expression>();
  const noScope = new EvalContext(undefined, undefined);
  for (const f of files) {
    const parsed = parseConfig(f.source, f.filename);
    diags.push(...parsed.diagnostics);
    const bytes = new TextEncoder().encode(parsed.result.source);
    const text = (r: Range) => new TextDecoder().decode(bytes.subarray(r.start.byte, r.end.byte));
    for (const block of parsed.result.body.blocks) {
      if (block.type === "locals") {
        for (const a of block.body.attributes) locals.set(a.name, a.expr);
      } else if (block.type === "variable" && block.labels.length === 1) {
        const name = block.labels[0] as string;
        const attr = (n: string): Attribute | undefined => block.body.attributes.find((a) => a.name === n);
        let type: Type = DynamicPseudoType;
        let defaults: Defaults | undefined;
        const typeAttr = attr("type");
        if (typeAttr) {
          const c = typeConstraintFromText(text(typeAttr.expr.range));
          for (const d of c.diagnostics) diags.push(errorDiag(d.summary, d.detail, typeAttr.expr.range));
          type = c.type;
          defaults = c.defaults;
        }
        const flag = (n: string, dflt: boolean): boolean => {
          const a = attr(n);
          if (!a) return dflt;
          const r = evaluate(a.expr, noScope);
          diags.push(...r.diagnostics);
          return r.value.kind === "bool" ? r.value.value : dflt;
        };
        let dflt: Value | undefined;
        const defAttr = attr("default");
        if (defAttr) {
          const r = evaluate(defAttr.expr, noScope);
          diags.push(...r.diagnostics);
          dflt = r.value;
        }
        variables.set(name, {
          name,
          type,
          defaults,
          default: dflt,
          sensitive: flag("sensitive", false),
          nullable: flag("nullable", true),
          declRange: { filename: block.typeRange.filename, start: block.typeRange.start, end: (block.labelRanges[0] ?? block.typeRange).end },
        });
      }
    }
  }
  return { module: { variables, locals }, diagnostics: diags };
}

/** The assignments of a `.tfvars` file (native syntax, or JSON for `.tfvars.json`). */
export function parseVariablesFile(file: SourceFile): { values: RawVariableValue[]; diagnostics: Diagnostic[] } {
  if (file.filename.endsWith(".json")) {
    const r = decodeJSONImplied(file.source);
    if (!r.ok) return { values: [], diagnostics: [errorDiag("Invalid JSON variables file", `${file.filename}: ${r.error.message}.`)] };
    const v = r.value;
    if (v.kind !== "object") return { values: [], diagnostics: [errorDiag("Invalid JSON variables file", `The root of ${file.filename} must be an object.`)] };
    return { values: [...v.attrs].map(([name, value]) => ({ name, source: "file", raw: { kind: "value", value } })), diagnostics: [] };
  }
  const parsed = parseConfig(file.source, file.filename);
  const diags = [...parsed.diagnostics];
  for (const b of parsed.result.body.blocks) {
    diags.push(errorDiag("Unexpected \"" + b.type + "\" block", "Blocks are not allowed here.", b.typeRange));
  }
  return { values: parsed.result.body.attributes.map((a) => ({ name: a.name, source: "file", raw: { kind: "expr", expr: a.expr } })), diagnostics: diags };
}

/** `-var 'name=value'`: the name and the literal text after the first `=`. */
export function parseVarFlag(arg: string): RawVariableValue | Diagnostic {
  const eq = arg.indexOf("=");
  if (eq <= 0) {
    return errorDiag(
      "Invalid -var option",
      `The given -var option ${JSON.stringify(arg)} is not correctly specified. Must be a variable name and value separated by an equals sign, like -var="key=value".`,
    );
  }
  return { name: arg.slice(0, eq).trim(), source: "cli", raw: { kind: "text", text: arg.slice(eq + 1) } };
}

/**
 * The final value of every declared variable: the last given value (or the default), parsed
 * as OpenTofu does (primitive or unconstrained types take text literally, others as HCL),
 * defaults from optional() applied, converted to the type, and marked when sensitive. A
 * variable with no value is unknown, as in `tofu console`.
 */
export function resolveVariables(mod: RootModule, given: readonly RawVariableValue[]): { values: Record<string, Value>; diagnostics: Diagnostic[] } {
  const diags: Diagnostic[] = [];
  const last = new Map<string, RawVariableValue>();
  for (const g of given) {
    if (!mod.variables.has(g.name)) {
      if (g.source === "cli") {
        diags.push(
          errorDiag(
            "Value for undeclared variable",
            `A variable named ${JSON.stringify(g.name)} was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a "variable" block to the configuration.`,
          ),
        );
      }
      continue;
    }
    last.set(g.name, g);
  }
  const noScope = new EvalContext(undefined, undefined);
  const values: Record<string, Value> = {};
  for (const decl of mod.variables.values()) {
    const g = last.get(decl.name);
    let v: Value | undefined;
    if (g) {
      const raw = g.raw;
      if (raw.kind === "value") v = raw.value;
      else if (raw.kind === "expr") {
        const r = evaluate(raw.expr, noScope);
        diags.push(...r.diagnostics);
        v = r.value;
      } else if (decl.type.kind === "string" || decl.type.kind === "number" || decl.type.kind === "bool" || decl.type.kind === "dynamic") {
        v = stringVal(raw.text);
      } else {
        const p = parseExpression(raw.text, g.source === "env" ? `<value for var.${decl.name}>` : `<value for var.${decl.name}>`);
        diags.push(...p.diagnostics);
        if (hasErrors(p.diagnostics)) continue;
        const r = evaluate(p.result, noScope);
        diags.push(...r.diagnostics);
        v = r.value;
      }
    } else if (decl.default !== undefined) {
      v = decl.default;
    }
    if (v === undefined) {
      values[decl.name] = markIf(unknownVal(decl.type), decl.sensitive);
      continue;
    }
    if (v.kind !== "null") v = applyDefaults(decl.defaults, v);
    const c = convert(v, decl.type);
    if (!c.ok) {
      diags.push(
        errorDiag(
          "Invalid value for input variable",
          `The given value is not suitable for var.${decl.name} declared at ${formatRange(decl.declRange)}: ${c.error.message}.`,
        ),
      );
      values[decl.name] = unknownVal(decl.type);
      continue;
    }
    values[decl.name] = markIf(c.value, decl.sensitive);
  }
  return { values, diagnostics: diags };
}

function markIf(v: Value, sensitive: boolean): Value {
  return sensitive ? mark(v, SENSITIVE) : v;
}

/**
 * Evaluates the `locals` in dependency order with the variables, path and workspace in scope;
 * a local that (transitively) fails or refers to itself evaluates to an unknown value.
 */
export function evaluateLocals(
  mod: RootModule,
  scope: ReadonlyMap<string, Value>,
  functions: ReadonlyMap<string, Func>,
): { values: Record<string, Value>; diagnostics: Diagnostic[] } {
  const diags: Diagnostic[] = [];
  const done = new Map<string, Value>();
  const visiting = new Set<string>();
  const visit = (name: string): void => {
    if (done.has(name)) return;
    const expr = mod.locals.get(name);
    if (!expr) return;
    if (visiting.has(name)) {
      diags.push(errorDiag("Cycle in local values", `The local value ${JSON.stringify(name)} refers to itself, directly or through other local values.`, expr.range));
      done.set(name, DynamicVal);
      return;
    }
    visiting.add(name);
    for (const t of expressionVariables(expr)) {
      const root = t[0];
      const step = t[1];
      if (root?.kind === "Root" && root.name === "local" && step?.kind === "Attr") visit(step.name);
    }
    visiting.delete(name);
    const vars = new Map(scope);
    vars.set("local", objectVal(Object.fromEntries(done)));
    const r = evaluate(expr, new EvalContext(vars, functions));
    diags.push(...r.diagnostics);
    done.set(name, hasErrors(r.diagnostics) ? DynamicVal : r.value);
  };
  for (const name of mod.locals.keys()) visit(name);
  return { values: Object.fromEntries(done), diagnostics: diags };
}
