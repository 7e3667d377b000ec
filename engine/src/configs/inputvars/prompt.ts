// Asking for missing required variables in a terminal (OpenTofu's backend/local
// interactiveCollectVariables). Best effort: a prompt that fails leaves the variable unset, and
// the usual "No value for required variable" error follows.
import { isRequired, type InputVariableDeclaration } from "./declaration.js";
import type { UnparsedVariableValue } from "./sources.js";

/** What the CLI shows for one prompt (tofu.InputOpts). */
export interface VariablePromptRequest {
  /** `var.NAME` */
  readonly id: string;
  /** `var.NAME` */
  readonly query: string;
  /** The variable's description, shown above the prompt; "" when it has none. */
  readonly description: string;
}

/** Implemented by the CLI on a terminal; absent with -input=false or without a terminal. */
export interface VariablePrompter {
  /** The text typed, or `undefined` when input failed or was cancelled. */
  input(request: VariablePromptRequest): Promise<string | undefined>;
}

/**
 * Prompts, in lexical order of name, for each required variable that no source set. Each answer
 * is a raw string, parsed later like a `-var` value.
 */
export async function interactiveCollectVariables(
  existing: ReadonlyMap<string, UnparsedVariableValue>,
  decls: ReadonlyMap<string, InputVariableDeclaration>,
  prompter: VariablePrompter | undefined,
): Promise<Map<string, UnparsedVariableValue>> {
  const ret = new Map(existing);
  if (!prompter) return ret;
  const needed: string[] = [];
  for (const [name, decl] of decls) if (isRequired(decl) && !existing.has(name)) needed.push(name);
  needed.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const name of needed) {
    const decl = decls.get(name) as InputVariableDeclaration;
    let raw: string | undefined;
    try {
      raw = await prompter.input({ id: `var.${name}`, query: `var.${name}`, description: decl.description ?? "" });
    } catch {
      raw = undefined;
    }
    if (raw === undefined) continue;
    ret.set(name, { kind: "string", name, raw, source: "input" });
  }
  return ret;
}
