// OpenTofu's deprecated module variables and outputs (`deprecated = "…"`, 1.10, stable in 1.11).
// A module call that sets a deprecated variable is warned at that argument, in every walk that
// evaluates it, as tofu's nodeModuleVariable does. An expression that reads a deprecated output of
// a module call (`module.m.out`, `module.m[0].out`) is warned at that reference when the plan or
// apply evaluates it: tofu marks the value and reports where the mark is first consumed, which for
// a direct reference is the same place (a reference with a key only known per instance, or to the
// whole module object, is not recognised here). `-deprecation=module:local` keeps only the
// warnings of modules called by a relative path, `module:none` drops them
// (variableDeprecationWarnAllowed, DeprecatedOutputDiagAllowed).
import type { ModuleCall, Output, Variable } from "../configs/index.js";
import type { Diagnostic, Range } from "../hcl/index.js";

/** Which modules' deprecation warnings are shown (`-deprecation=module:<level>`). */
export type DeprecationWarningLevel = "all" | "local" | "none";

/** `-deprecation=module:<level>`: an unknown level shows them all, as tofu's parser falls back. */
export function parseDeprecationWarningLevel(s: string): DeprecationWarningLevel {
  return s === "local" || s === "none" ? s : "all";
}

function warnedFor(level: DeprecationWarningLevel, call: ModuleCall): boolean {
  if (level === "none") return false;
  if (level === "local") return call.sourceAddr?.kind === "local";
  return true;
}

/** The warning for setting `decl` in `call` at `at` (the argument), if it is deprecated. */
export function deprecatedVariableWarning(call: ModuleCall, decl: Variable, at: Range, level: DeprecationWarningLevel = "all"): Diagnostic | undefined {
  if (decl.deprecated === "" || !warnedFor(level, call)) return undefined;
  return {
    severity: "warning",
    summary: "Variable marked as deprecated by the module author",
    detail: `Variable "${decl.name}" is marked as deprecated with the following message:\n${decl.deprecated}`,
    subject: at,
    // The same variable and message, wherever it is reported, are one warning when folded.
    consolidationKey: `variable ${decl.name}\n${decl.deprecated}`,
  };
}

/** The warning for reading `output` of the module `call` through the reference `by` at `at`. */
export function deprecatedOutputWarning(call: ModuleCall, output: Output, by: string, at: Range, level: DeprecationWarningLevel = "all"): Diagnostic | undefined {
  if (output.deprecated === "" || !warnedFor(level, call)) return undefined;
  return {
    severity: "warning",
    summary: "Value derived from a deprecated source",
    detail: `This value is derived from ${by}, which is deprecated with the following message:\n\n${output.deprecated}`,
    subject: at,
    consolidationKey: `output ${output.name}\n${output.deprecated}`,
  };
}
