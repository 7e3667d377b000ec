// A `provider` block's `for_each`, evaluated statically into instance keys (OpenTofu's
// Provider.decodeStaticFields): the subject is `provider.<name>.<alias>.for_each`; the value
// must follow the rules of every for_each (foreach.ts). Each instance keeps its `each.key` and
// `each.value` for the provider's configuration body.
import { type Diagnostic } from "../../hcl/index.js";
import { objectVal, stringVal, type Value } from "../../values/index.js";
import { providerKey, type Provider, type ProviderInstanceRepetition } from "../provider.js";
import type { StaticEvaluator } from "./evaluator.js";
import { evaluateForEachExpression } from "./foreach.js";

export function decodeProviderStaticFields(p: Provider, evaluator: StaticEvaluator): Diagnostic[] {
  const expr = p.forEach;
  if (!expr) return [];
  const ident = { module: evaluator.call.addr, subject: `provider.${providerKey(p.name, p.alias)}.for_each`, declRange: expr.range };
  const r = evaluateForEachExpression(expr, (refs) => evaluator.evalContext(ident, refs));
  if (r.diagnostics.some((d) => d.severity === "error")) return r.diagnostics;
  const instances = new Map<string, ProviderInstanceRepetition>();
  for (const [k, v] of r.instances) instances.set(k, { eachKey: stringVal(k), eachValue: v });
  p.instances = instances;
  return r.diagnostics;
}

/** The `each` object of one instance, for evaluating the provider's configuration body. */
export function eachObject(rep: ProviderInstanceRepetition): Value {
  return objectVal({ key: rep.eachKey, value: rep.eachValue });
}
