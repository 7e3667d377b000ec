// What this package needs to know about a `variable` block (a subset of OpenTofu's
// configs.Variable), and how a raw string from the command line, the environment or a prompt
// becomes a value for it (configs.VariableParsingMode.Parse).
import { parseExpression, type AnyExpression, type Diagnostic, type Range } from "../../hcl/index.js";
import { evaluate } from "../../lang/eval/index.js";
import { DynamicVal, isPrimitive, stringVal, withoutOptionalAttributesDeep, type Defaults, type Type, type Value } from "../../values/index.js";
import { NIL_CONTEXT } from "./nilcontext.js";

/**
 * How a raw string value is turned into a value: `literal` takes it as a string; `hcl` parses it
 * as an HCL expression. Variables without a `type`, or with a primitive one, are `literal`;
 * every other constraint (including `any`, `list`, `map`) is `hcl`.
 */
export type VariableParsingMode = "literal" | "hcl";

/** One `validation` block (configs.CheckRule). */
export interface VariableValidation {
  readonly condition: AnyExpression;
  readonly errorMessage: AnyExpression;
  /** The `validation` block's definition range (its header), named in "checked by" details. */
  readonly declRange: Range;
}

/** The parts of a decoded `variable` block that input variable processing reads. */
export interface InputVariableDeclaration {
  readonly name: string;
  readonly description?: string;
  /** The type constraint as written, possibly with optional object attributes. */
  readonly constraintType: Type;
  /** Defaults from `optional(type, default)`; undefined when there are none. */
  readonly typeDefaults?: Defaults | undefined;
  readonly parsingMode: VariableParsingMode;
  /** The default value, already converted to the constraint; undefined means "required". */
  readonly default?: Value | undefined;
  readonly nullable: boolean;
  readonly sensitive: boolean;
  readonly ephemeral: boolean;
  readonly validations: readonly VariableValidation[];
  /** The `variable "name"` header range. */
  readonly declRange: Range;
}

/** The parsing mode OpenTofu picks for a variable (decodeVariableType). */
export function parsingModeFor(type: Type | undefined): VariableParsingMode {
  if (type === undefined) return "literal";
  return isPrimitive(type) ? "literal" : "hcl";
}

/** A variable is required when it has no default at all (a `null` default is a default). */
export function isRequired(decl: InputVariableDeclaration): boolean {
  return decl.default === undefined;
}

/** The variable's concrete type: its constraint without optional-attribute markers. */
export function concreteType(decl: InputVariableDeclaration): Type {
  return withoutOptionalAttributesDeep(decl.constraintType);
}

export interface ParsedValue {
  readonly value: Value;
  readonly diagnostics: Diagnostic[];
}

/**
 * VariableParsingMode.Parse: a raw string as given with `-var`, `TF_VAR_name` or at a prompt.
 * HCL mode parses an expression in a file named `<value for var.NAME>` and evaluates it with no
 * variables and no functions.
 */
export function parseRawValue(mode: VariableParsingMode, name: string, raw: string): ParsedValue {
  if (mode === "literal") return { value: stringVal(raw), diagnostics: [] };
  const fakeFilename = `<value for var.${name}>`;
  const parsed = parseExpression(raw, fakeFilename);
  if (parsed.diagnostics.some((d) => d.severity === "error")) return { value: DynamicVal, diagnostics: parsed.diagnostics };
  const r = evaluate(parsed.result, NIL_CONTEXT);
  return { value: r.value, diagnostics: [...parsed.diagnostics, ...r.diagnostics] };
}
