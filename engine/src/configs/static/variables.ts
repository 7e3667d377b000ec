// Root module variables for static evaluation (OpenTofu's command/meta_config.go rootModuleCall):
// values from the environment, variables files and -var options as inputvars collects them; a
// required variable with none is asked for once (the answer is kept for every later use), and
// with input disabled it is "Failed to request input from user for variable var.NAME".
// Also the adapter from configs' Variable to inputvars' InputVariableDeclaration.
import { errorDiag, type Diagnostic } from "../../hcl/index.js";
import { DynamicPseudoType } from "../../values/index.js";
import {
  parseVariableValue,
  type InputVariableDeclaration,
  type UnparsedVariableValue,
  type VariablePrompter,
  type VariableValidation,
} from "../inputvars/index.js";
import type { Loader } from "../loader.js";
import type { Module } from "../module.js";
import { variableRequired, type Variable } from "../variable.js";
import { newStaticModuleCall, type StaticModuleCall, type StaticModuleVariables } from "./call.js";

/** The parts of a `variable` block inputvars reads (see inputvars/README.md, "Mapping"). */
export function inputVariableDeclaration(v: Variable): InputVariableDeclaration {
  const validations: VariableValidation[] = [];
  for (const rule of v.validations) {
    if (rule.condition && rule.errorMessage) validations.push({ condition: rule.condition, errorMessage: rule.errorMessage, declRange: rule.declRange });
  }
  return {
    name: v.name,
    description: v.description,
    constraintType: v.constraintType ?? DynamicPseudoType,
    typeDefaults: v.typeDefaults,
    parsingMode: v.parsingMode ?? "literal",
    default: v.default,
    nullable: v.nullable,
    sensitive: v.sensitive,
    ephemeral: v.ephemeral,
    validations,
    declRange: v.declRange,
  };
}

/** Every variable of a module as inputvars declarations, in declaration order. */
export function inputVariableDeclarations(m: Module): Map<string, InputVariableDeclaration> {
  return new Map([...m.variables].map(([name, v]) => [name, inputVariableDeclaration(v)]));
}

/**
 * The root module's variable values for static evaluation. Evaluation is synchronous, prompts are
 * not: a variable that needs asking is recorded as pending (its evaluation fails for now), and
 * `promptPending` asks for each pending one once; the caller then evaluates again
 * (`loadConfigWithRootInputs` does both).
 */
export class RootModuleInputs {
  /** Answers from prompts, by name; `undefined` when asking failed. */
  private readonly answers = new Map<string, UnparsedVariableValue | undefined>();
  private readonly pending = new Map<string, Variable>();

  constructor(
    private readonly values: ReadonlyMap<string, UnparsedVariableValue>,
    /** Absent for -input=false (or without a terminal). */
    private readonly prompter?: VariablePrompter,
  ) {}

  readonly vars: StaticModuleVariables = (variable) => {
    const name = variable.name;
    let v = this.values.get(name);
    if (!v) {
      if (!variableRequired(variable)) return { value: variable.default, diagnostics: [] };
      v = this.answers.get(name);
      if (!v) {
        if (this.prompter && !this.answers.has(name)) this.pending.set(name, variable);
        return { value: undefined, diagnostics: [inputFailed(variable)] };
      }
    }
    const parsed = parseVariableValue(v, variable.parsingMode ?? "literal");
    return { value: parsed.value.value, diagnostics: parsed.diagnostics };
  };

  /** Whether some variable is waiting to be asked for. */
  hasPending(): boolean {
    return this.pending.size > 0;
  }

  /** Asks for every pending variable, once each, in the order evaluation needed them. */
  async promptPending(): Promise<void> {
    const prompter = this.prompter;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const variable of waiting) {
      if (this.answers.has(variable.name)) continue;
      let raw: string | undefined;
      try {
        raw = prompter ? await prompter.input({ id: `var.${variable.name}`, query: `var.${variable.name}`, description: variable.description }) : undefined;
      } catch {
        raw = undefined;
      }
      this.answers.set(variable.name, raw === undefined ? undefined : { kind: "string", name: variable.name, raw, source: "input" });
    }
  }

  /** Raw prompt answers, for the later (dynamic) phase to reuse instead of asking again. */
  promptAnswers(): Map<string, UnparsedVariableValue> {
    const out = new Map<string, UnparsedVariableValue>();
    for (const [name, v] of this.answers) if (v) out.set(name, v);
    return out;
  }
}

function inputFailed(variable: Variable): Diagnostic {
  return errorDiag(`Failed to request input from user for variable var.${variable.name}`, "", variable.declRange);
}

/** The root module's StaticModuleCall over the given inputs. */
export function rootModuleCall(inputs: RootModuleInputs, rootPath: string, workspace: string, extra: Parameters<typeof newStaticModuleCall>[4] = {}): StaticModuleCall {
  return newStaticModuleCall([], inputs.vars, rootPath, workspace, extra);
}

/**
 * Runs a synchronous static evaluation over `inputs`; when it needed variables that must be asked
 * for, asks (each once) and runs it again with the answers.
 */
export async function withRootInputs<T>(inputs: RootModuleInputs, run: () => T): Promise<T> {
  for (;;) {
    const r = run();
    if (!inputs.hasPending()) return r;
    await inputs.promptPending();
  }
}

/**
 * Loads the configuration with static evaluation, asking for missing required variables the
 * evaluation needs (each once) and loading again with the answers.
 */
export async function loadConfigWithRootInputs(
  loader: Loader,
  rootDir: string,
  inputs: RootModuleInputs,
  workspace: string,
  extra: Parameters<typeof newStaticModuleCall>[4] = {},
): Promise<ReturnType<Loader["loadConfig"]>> {
  const staticCall = rootModuleCall(inputs, rootDir, workspace, extra);
  return withRootInputs(inputs, () => loader.loadConfig(rootDir, { staticCall }));
}
