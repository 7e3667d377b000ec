// A variable's final value (OpenTofu's tofu/eval_variable.go prepareFinalInputVariableValue):
// the given value or the default, `optional()` defaults applied, converted to the type
// constraint, null handled by the `nullable` rule, and the `sensitive` / `ephemeral` marks added.
import { errorDiag, formatRange, type Diagnostic, type Range } from "../../hcl/index.js";
import { EPHEMERAL, SENSITIVE, applyDefaults, convert, goQuote, unknownVal, withMarks, type Value } from "../../values/index.js";
import { concreteType, isRequired, type InputVariableDeclaration } from "./declaration.js";
import type { InputValue } from "./parse.js";

export interface FinalValueResult {
  /** The final value; an unknown of the variable's type stands in after an error. */
  readonly value: Value;
  readonly diagnostics: Diagnostic[];
  /** True when the value is a placeholder for a failed variable (validations are not run). */
  readonly failed: boolean;
}

/** How a value that has no source range of its own is described ("set using -var=..."). */
function nonFileSourceText(raw: InputValue, name: string): string {
  switch (raw.sourceType) {
    case "cli-arg":
      return `set using -var="${name}=..."`;
    case "env":
      return `set using the TF_VAR_${name} environment variable`;
    case "input":
      return "set using an interactive prompt";
    default:
      return "set from outside of the configuration";
  }
}

/**
 * The value without its marks applied yet; `finalInputVariableValue` adds them. `addr` is how
 * messages name the variable: a child module's with its module path (`module.m.var.n`).
 */
export function prepareFinalInputVariableValue(raw: InputValue, decl: InputVariableDeclaration, addr = `var.${decl.name}`): FinalValueResult {
  const diagnostics: Diagnostic[] = [];
  const placeholder = (): FinalValueResult => ({ value: unknownVal(concreteType(decl)), diagnostics, failed: true });

  let defaultVal: Value | undefined;
  if (decl.default !== undefined) {
    const c = convert(decl.default, decl.constraintType);
    if (!c.ok) {
      // The decoder normally catches this; checked again to be robust.
      diagnostics.push(
        errorDiag(
          "Invalid default value for module argument",
          `The default value for variable ${goQuote(decl.name)} is incompatible with its type constraint: ${c.error.message}.`,
          decl.declRange,
        ),
      );
      return placeholder();
    }
    defaultVal = c.value;
  }

  let sourceRange: Range;
  let nonFileSource = "";
  if (raw.sourceRange && raw.sourceRange.filename !== "") {
    sourceRange = raw.sourceRange;
  } else {
    sourceRange = decl.declRange;
    nonFileSource = nonFileSourceText(raw, decl.name);
  }

  let given = raw.value;
  if (given === undefined) {
    if (isRequired(decl)) {
      // The CLI reports missing root variables itself with a more specific message.
      diagnostics.push(errorDiag("Required variable not set", `The variable ${goQuote(decl.name)} is required, but is not set.`, decl.declRange));
      return placeholder();
    }
    given = defaultVal as Value;
  }

  // Defaults are not applied to a top-level null, so null can still be assigned when nullable.
  if (decl.typeDefaults && given.kind !== "null") given = applyDefaults(decl.typeDefaults, given);

  const converted = convert(given, decl.constraintType);
  if (!converted.ok) {
    // As OpenTofu prints the error with %s: the message only, without its path.
    const err = converted.error.message;
    let detail: string;
    let subject: Range;
    if (nonFileSource !== "") {
      detail = `Unsuitable value for ${addr} ${nonFileSource}: ${err}.`;
      subject = decl.declRange;
    } else if (decl.sensitive) {
      // The operator may not be allowed to see the value: point at the declaration instead.
      detail = `The given value is not suitable for ${addr}, which is sensitive: ${err}. Invalid value defined at ${formatRange(sourceRange)}.`;
      subject = decl.declRange;
    } else {
      detail = `The given value is not suitable for ${addr} declared at ${formatRange(decl.declRange)}: ${err}.`;
      subject = sourceRange;
    }
    diagnostics.push(errorDiag("Invalid value for input variable", detail, subject));
    return placeholder();
  }
  let val = converted.value;

  // Null for a non-nullable variable takes the default, or is an error when there is none.
  // Nullable variables keep a null they were given, whatever their default.
  if (val.kind === "null" && !decl.nullable) {
    if (defaultVal !== undefined) {
      val = defaultVal;
    } else {
      if (nonFileSource !== "") {
        diagnostics.push(
          errorDiag(
            "Required variable not set",
            `Unsuitable value for ${addr} ${nonFileSource}: required variable may not be set to null.`,
            decl.declRange,
          ),
        );
      } else {
        diagnostics.push(
          errorDiag(
            "Required variable not set",
            `The given value is not suitable for ${addr} defined at ${formatRange(decl.declRange)}: required variable may not be set to null.`,
            sourceRange,
          ),
        );
      }
      return placeholder();
    }
  }
  return { value: val, diagnostics, failed: false };
}

/** The marks every reference to the variable sees: `sensitive` and `ephemeral`. */
export function markVariableValue(v: Value, decl: InputVariableDeclaration): Value {
  let out = v;
  if (decl.sensitive) out = withMarks(out, SENSITIVE);
  if (decl.ephemeral) out = withMarks(out, EPHEMERAL);
  return out;
}
