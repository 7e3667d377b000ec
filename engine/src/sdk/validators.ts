// Attribute validators, run during ValidateResourceConfig / ValidateDataResourceConfig /
// ValidateProviderConfig for every attribute whose configured value is known and not null.
// Texts follow terraform-plugin-framework-validators.

import { BigFloat, formatPath, goQuote, type Path, type Value } from "../values/index.js";
import { errorDiagnostic, type Diagnostic } from "./diagnostics.js";

export interface ValidateContext {
  readonly path: Path;
  /** The whole configuration object being validated. */
  readonly config: Value;
}

export type Validator = (value: Value, ctx: ValidateContext) => readonly Diagnostic[] | Diagnostic | undefined | void;

/** The path as the framework prints it in messages: `length`, `rule[0].name`. */
export function attributePathString(path: Path): string {
  return formatPath(path).replace(/^\./, "");
}

function numberText(v: Value): string {
  return v.kind === "number" ? v.value.text("f") : String(v.kind);
}

export function atLeast(min: number): Validator {
  return (v, ctx) => {
    if (v.kind !== "number" || v.value.cmp(BigFloat.fromFloat64(min)) >= 0) return undefined;
    return errorDiagnostic("Invalid Attribute Value", `Attribute ${attributePathString(ctx.path)} value must be at least ${min}, got: ${numberText(v)}`, ctx.path);
  };
}

export function atMost(max: number): Validator {
  return (v, ctx) => {
    if (v.kind !== "number" || v.value.cmp(BigFloat.fromFloat64(max)) <= 0) return undefined;
    return errorDiagnostic("Invalid Attribute Value", `Attribute ${attributePathString(ctx.path)} value must be at most ${max}, got: ${numberText(v)}`, ctx.path);
  };
}

export function between(min: number, max: number): Validator {
  return (v, ctx) => {
    if (v.kind !== "number") return undefined;
    if (v.value.cmp(BigFloat.fromFloat64(min)) >= 0 && v.value.cmp(BigFloat.fromFloat64(max)) <= 0) return undefined;
    return errorDiagnostic(
      "Invalid Attribute Value",
      `Attribute ${attributePathString(ctx.path)} value must be between ${min} and ${max}, got: ${numberText(v)}`,
      ctx.path,
    );
  };
}

export function lengthBetween(min: number, max: number): Validator {
  return (v, ctx) => {
    if (v.kind !== "string") return undefined;
    const n = [...v.value].length;
    if (n >= min && n <= max) return undefined;
    return errorDiagnostic(
      "Invalid Attribute Value Length",
      `Attribute ${attributePathString(ctx.path)} string length must be between ${min} and ${max}, got: ${n}`,
      ctx.path,
    );
  };
}

export function oneOf(...allowed: string[]): Validator {
  return (v, ctx) => {
    if (v.kind !== "string" || allowed.includes(v.value)) return undefined;
    return errorDiagnostic(
      "Invalid Attribute Value Match",
      `Attribute ${attributePathString(ctx.path)} value must be one of: [${allowed.map(goQuote).join(" ")}], got: ${goQuote(v.value)}`,
      ctx.path,
    );
  };
}

export function matches(re: RegExp, message: string): Validator {
  return (v, ctx) => {
    if (v.kind !== "string" || re.test(v.value)) return undefined;
    return errorDiagnostic(
      "Invalid Attribute Value Match",
      `Attribute ${attributePathString(ctx.path)} ${message}, got: ${goQuote(v.value)}`,
      ctx.path,
    );
  };
}
