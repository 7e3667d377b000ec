// Where a module calls provider-defined functions (`provider::<name>[::<alias>]::<function>`):
// the core needs to know before a walk which providers must be started for them (OpenTofu's
// graph finds the same through each node's references). Only files whose text mentions
// "provider::" are walked, so a module without such calls costs a substring search per file.
import type { Range, SyntaxBody } from "../hcl/index.js";
import { providerFunctionTraversals } from "./static/references.js";

export interface ProviderFunctionCall {
  /** The name as called, e.g. "provider::aws::arn_parse". */
  readonly name: string;
  readonly range: Range;
}

/** Whether a file's text may contain provider function calls worth walking its body for. */
export function mayCallProviderFunctions(text: string): boolean {
  return text.includes("provider::");
}

/** Every call of a provider-namespaced function in a file's body, nested blocks included. */
export function providerFunctionCallsIn(body: SyntaxBody): ProviderFunctionCall[] {
  const out: ProviderFunctionCall[] = [];
  const visit = (b: SyntaxBody): void => {
    if (b.syntax === "json") {
      collect(providerFunctionTraversals({ kind: "JSONExpr", value: b.value, range: b.value.range }), out);
      return;
    }
    const walk = (body: typeof b.body): void => {
      for (const a of body.attributes) collect(providerFunctionTraversals(a.expr), out);
      for (const blk of body.blocks) walk(blk.body);
    };
    walk(b.body);
  };
  visit(body);
  return out;
}

function collect(traversals: ReturnType<typeof providerFunctionTraversals>, out: ProviderFunctionCall[]): void {
  for (const t of traversals) {
    const root = t[0];
    if (root?.kind === "Root") out.push({ name: root.name, range: root.range });
  }
}
