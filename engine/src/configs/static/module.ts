// Applying a static call to a loaded module (the part of OpenTofu's NewModule that runs once
// locals and variables are merged): the module gets its StaticEvaluator, then every module
// call's static fields and every provider's `for_each` are decoded with it, in declaration order.
import type { Diagnostic } from "../../hcl/index.js";
import type { Module } from "../module.js";
import type { StaticModuleCall } from "./call.js";
import { StaticEvaluator } from "./evaluator.js";
import { decodeModuleCallStaticFields } from "./modulecall.js";
import { decodeProviderStaticFields } from "./provider.js";

export function applyStaticModuleCall(module: Module, call: StaticModuleCall): { evaluator: StaticEvaluator; diagnostics: Diagnostic[] } {
  const evaluator = new StaticEvaluator(module, call);
  module.staticEvaluator = evaluator;
  const diagnostics: Diagnostic[] = [];
  for (const mc of module.moduleCalls.values()) diagnostics.push(...decodeModuleCallStaticFields(mc, evaluator));
  for (const p of module.providerConfigs.values()) diagnostics.push(...decodeProviderStaticFields(p, evaluator));
  return { evaluator, diagnostics };
}
