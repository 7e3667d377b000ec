// The whole pipeline for a root module, in OpenTofu's order: collect unparsed values from every
// source, prompt for missing required ones when input is enabled, parse them against the
// declarations, then give each variable its final value and check its validation rules.
import { hasErrors, type Diagnostic } from "../../hcl/index.js";
import type { Value } from "../../values/index.js";
import type { InputVariableDeclaration, VariableValidation } from "./declaration.js";
import { markVariableValue, prepareFinalInputVariableValue } from "./finalize.js";
import { parseVariableValues, type InputValue, type InputValues } from "./parse.js";
import { interactiveCollectVariables, type VariablePrompter } from "./prompt.js";
import { collectVariableValues, type CollectOptions, type UnparsedVariableValue } from "./sources.js";
import { evalVariableValidations, type ValidationResult, type ValidationScope } from "./validate.js";

export type Declarations = ReadonlyMap<string, InputVariableDeclaration> | readonly InputVariableDeclaration[];

function declarationMap(d: Declarations): ReadonlyMap<string, InputVariableDeclaration> {
  if (d instanceof Map) return d as ReadonlyMap<string, InputVariableDeclaration>;
  return new Map((d as readonly InputVariableDeclaration[]).map((v) => [v.name, v]));
}

export interface FinalizeResult {
  /** Final values by name, with `sensitive` / `ephemeral` marks; unknown placeholders after errors. */
  readonly values: Map<string, Value>;
  /** Per variable, the status of each validation rule in order. */
  readonly checks: Map<string, ValidationResult[]>;
  readonly diagnostics: Diagnostic[];
  /** The same diagnostics by the variable they are about. */
  readonly byName: Map<string, Diagnostic[]>;
  /** Variables given no value that have none of their own (required, or an invalid default). */
  readonly unset: Set<string>;
}

/**
 * Final values and validations for parsed inputs. Each variable's own diagnostics come first
 * (in declaration order), then every validation's: rules may refer to other variables, so they
 * run once all final values are known.
 */
export function finalizeInputVariables(
  decls: Declarations,
  inputs: ReadonlyMap<string, InputValue>,
  scope: Omit<ValidationScope, "variables"> = {},
  /** Rules checked later, where more than the variables is known (a run's graph walk). */
  deferred?: (rule: VariableValidation) => boolean,
): FinalizeResult {
  const declMap = declarationMap(decls);
  const values = new Map<string, Value>();
  const failed = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  const byName = new Map<string, Diagnostic[]>();
  const unset = new Set<string>();
  const report = (name: string, diags: readonly Diagnostic[]) => {
    if (diags.length === 0) return;
    diagnostics.push(...diags);
    byName.set(name, [...(byName.get(name) ?? []), ...diags]);
  };
  for (const [name, decl] of declMap) {
    const raw = inputs.get(name) ?? { value: undefined, sourceType: "config" as const, sourceRange: decl.declRange };
    const r = prepareFinalInputVariableValue(raw, decl);
    report(name, r.diagnostics);
    if (r.failed) failed.add(name);
    if (r.failed && raw.value === undefined) unset.add(name);
    values.set(name, markVariableValue(r.value, decl));
  }
  const checks = new Map<string, ValidationResult[]>();
  for (const [name, decl] of declMap) {
    const rules = deferred ? decl.validations.filter((rule) => !deferred(rule)) : decl.validations;
    if (failed.has(name) || rules.length === 0) continue;
    const r = evalVariableValidations({ ...decl, validations: rules }, values.get(name) as Value, { ...scope, variables: values });
    checks.set(name, r.statuses);
    report(name, r.diagnostics);
  }
  return { values, checks, diagnostics, byName, unset };
}

export interface InputVariablesOptions extends CollectOptions {
  readonly declarations: Declarations;
  /** Prompts for missing required variables; leave unset for -input=false. */
  readonly prompter?: VariablePrompter | undefined;
  /**
   * Values that take precedence over every other source (a run's stored workspace variables,
   * a test's `variables` block), applied after the command-line options.
   */
  readonly overrides?: ReadonlyMap<string, UnparsedVariableValue>;
  /** Functions and other root names for validation rules. */
  readonly validationScope?: Omit<ValidationScope, "variables">;
}

export interface InputVariablesResult {
  /** Final marked values of every declared variable (only meaningful without errors). */
  readonly values: Map<string, Value>;
  /** Values given for names the root module does not declare. */
  readonly undeclared: InputValues;
  readonly checks: Map<string, ValidationResult[]>;
  readonly diagnostics: Diagnostic[];
  /** Text of the variables files read, by filename, for diagnostic snippets. */
  readonly sources: Map<string, string>;
}

/**
 * Everything a `plan`/`apply` does with root module variables before the graph walk. Stops after
 * the first stage that reports errors, as OpenTofu does.
 */
export async function buildInputVariables(opts: InputVariablesOptions): Promise<InputVariablesResult> {
  const decls = declarationMap(opts.declarations);
  const collected = collectVariableValues(opts);
  const diagnostics = [...collected.diagnostics];
  const empty = (): InputVariablesResult => ({ values: new Map(), undeclared: new Map(), checks: new Map(), diagnostics, sources: collected.sources });
  if (hasErrors(diagnostics)) return empty();

  let unparsed: Map<string, UnparsedVariableValue> = collected.values;
  for (const [name, v] of opts.overrides ?? []) unparsed.set(name, v);
  unparsed = await interactiveCollectVariables(unparsed, decls, opts.prompter);

  const parsed = parseVariableValues(unparsed, decls);
  diagnostics.push(...parsed.diagnostics);
  if (hasErrors(diagnostics)) return { ...empty(), undeclared: parsed.undeclared };

  const final = finalizeInputVariables(decls, parsed.values, opts.validationScope);
  diagnostics.push(...final.diagnostics);
  return { values: final.values, undeclared: parsed.undeclared, checks: final.checks, diagnostics, sources: collected.sources };
}
