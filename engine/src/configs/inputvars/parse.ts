// Turning unparsed values into values once the root module's declarations are known (OpenTofu's
// backend/unparsed_value.go): each declared variable's value is parsed by its parsing mode,
// undeclared ones are reported (a warning for files, an error on the command line), and a
// required variable with no value at all is an error that names -var and -var-file.
import { errorDiag, hasErrors, type Diagnostic, type Range } from "../../hcl/index.js";
import { DynamicVal, goQuote, type Value } from "../../values/index.js";
import { isRequired, parseRawValue, type InputVariableDeclaration, type VariableParsingMode } from "./declaration.js";
import { evaluateWithoutContext } from "./nilcontext.js";
import type { UnparsedVariableValue, ValueSourceType } from "./sources.js";

/** A parsed value and where it came from (tofu.InputValue). */
export interface InputValue {
  /** `undefined` is cty.NilVal: not set at all (not even to null), so the default applies. */
  readonly value: Value | undefined;
  readonly sourceType: ValueSourceType;
  /** Set for values from files; values from -var, the environment or a prompt have none. */
  readonly sourceRange?: Range | undefined;
}

export type InputValues = Map<string, InputValue>;

export interface ParseResult {
  readonly values: InputValues;
  readonly diagnostics: Diagnostic[];
}

/** UnparsedVariableValue.ParseVariableValue. */
export function parseVariableValue(uv: UnparsedVariableValue, mode: VariableParsingMode): { value: InputValue; diagnostics: Diagnostic[] } {
  switch (uv.kind) {
    case "string": {
      const r = parseRawValue(mode, uv.name, uv.raw);
      return { value: { value: r.value, sourceType: uv.source }, diagnostics: r.diagnostics };
    }
    case "expression": {
      const r = evaluateWithoutContext(uv.expr);
      return { value: { value: r.value, sourceType: uv.source, sourceRange: uv.expr.range }, diagnostics: r.diagnostics };
    }
    case "value":
      return { value: { value: uv.value, sourceType: uv.source, sourceRange: uv.sourceRange }, diagnostics: [] };
  }
}

/** ParseDeclaredVariableValues: the values of declared variables, each by its own parsing mode. */
export function parseDeclaredVariableValues(
  vv: ReadonlyMap<string, UnparsedVariableValue>,
  decls: ReadonlyMap<string, InputVariableDeclaration>,
): ParseResult {
  const values: InputValues = new Map();
  const diagnostics: Diagnostic[] = [];
  for (const [name, uv] of vv) {
    const decl = decls.get(name);
    if (!decl) continue;
    const r = parseVariableValue(uv, decl.parsingMode);
    diagnostics.push(...r.diagnostics);
    if (hasErrors(r.diagnostics)) continue;
    values.set(name, r.value);
  }
  return { values, diagnostics };
}

/** How many undeclared file values get their own warning before the rest are summarised. */
const UNDECLARED_FILE_WARNINGS = 2;

/** ParseUndeclaredVariableValues: values for names the root module does not declare. */
export function parseUndeclaredVariableValues(
  vv: ReadonlyMap<string, UnparsedVariableValue>,
  decls: ReadonlyMap<string, InputVariableDeclaration>,
): ParseResult {
  const values: InputValues = new Map();
  const diagnostics: Diagnostic[] = [];
  let seenUndeclaredInFile = 0;
  for (const [name, uv] of vv) {
    if (decls.has(name)) continue;
    const r = parseVariableValue(uv, "literal");
    if (hasErrors(r.diagnostics)) continue;
    values.set(name, r.value);
    switch (r.value.sourceType) {
      case "config":
      case "auto-file":
      case "named-file":
        // Files may carry values for other configurations; warn in case of a typo.
        if (seenUndeclaredInFile < UNDECLARED_FILE_WARNINGS) {
          diagnostics.push({
            severity: "warning",
            summary: "Value for undeclared variable",
            detail: `The root module does not declare a variable named ${goQuote(name)} but a value was found in file ${goQuote(r.value.sourceRange?.filename ?? "")}. If you meant to use this value, add a "variable" block to the configuration.\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain "global" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option.`,
          });
        }
        seenUndeclaredInFile++;
        break;
      case "env":
        // Environment variables are often set globally for many configurations: ignored.
        break;
      case "cli-arg":
        diagnostics.push(
          errorDiag(
            "Value for undeclared variable",
            `A variable named ${goQuote(name)} was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a "variable" block to the configuration.`,
          ),
        );
        break;
      default:
        diagnostics.push(
          errorDiag(
            "Value for undeclared variable",
            `A variable named ${goQuote(name)} was assigned a value, but the root module does not declare a variable of that name. To use this value, add a "variable" block to the configuration.`,
          ),
        );
    }
  }
  if (seenUndeclaredInFile > UNDECLARED_FILE_WARNINGS) {
    diagnostics.push({
      severity: "warning",
      summary: "Values for undeclared variables",
      detail: `In addition to the other similar warnings shown, ${seenUndeclaredInFile - UNDECLARED_FILE_WARNINGS} other variable(s) defined without being declared.`,
    });
  }
  return { values, diagnostics };
}

export interface ParseVariableValuesResult {
  /** Every declared variable: parsed, or `undefined` value (unset, default applies), or DynamicVal (required, missing). */
  readonly values: InputValues;
  /** Values for names the configuration does not declare. */
  readonly undeclared: InputValues;
  readonly diagnostics: Diagnostic[];
}

/**
 * ParseVariableValues: declared values, undeclared ones, and a placeholder for every declared
 * variable not given, with "No value for required variable" when it has no default.
 */
export function parseVariableValues(
  vv: ReadonlyMap<string, UnparsedVariableValue>,
  decls: ReadonlyMap<string, InputVariableDeclaration>,
): ParseVariableValuesResult {
  const declared = parseDeclaredVariableValues(vv, decls);
  const undeclared = parseUndeclaredVariableValues(vv, decls);
  const diagnostics = [...declared.diagnostics, ...undeclared.diagnostics];
  const values = declared.values;
  for (const [name, decl] of decls) {
    if (values.has(name) || undeclared.values.has(name)) continue;
    if (isRequired(decl)) {
      diagnostics.push(
        errorDiag(
          "No value for required variable",
          `The root module input variable ${goQuote(name)} is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.`,
          decl.declRange,
        ),
      );
      values.set(name, { value: DynamicVal, sourceType: "config", sourceRange: decl.declRange });
    } else {
      values.set(name, { value: undefined, sourceType: "config", sourceRange: decl.declRange });
    }
  }
  return { values, undeclared: undeclared.values, diagnostics };
}
