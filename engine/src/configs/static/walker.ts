// Static evaluation through the module tree: a ModuleWalker wrapper that gives every loaded
// child module its static call (the parent's evaluator evaluating the `module` block's
// arguments), so that the child's own module sources, versions and provider for_each resolve.
import type { ModuleWalker, ModuleWalkResult } from "../config.js";
import { applyStaticModuleCall } from "./module.js";
import { childModuleCall } from "./modulecall.js";

export function staticModuleWalker(inner: ModuleWalker): ModuleWalker {
  return (req): ModuleWalkResult => {
    const parent = req.parent.module.staticEvaluator;
    const mc = req.parent.module.moduleCalls.get(req.name);
    if (!parent || !mc) return inner(req);
    // The source could not be decoded; why was already reported when the parent was loaded.
    if (!req.sourceAddr) return { module: undefined, version: undefined, diagnostics: [] };
    const r = inner(req);
    if (!r.module) return r;
    const applied = applyStaticModuleCall(r.module, childModuleCall(mc, parent));
    return { ...r, diagnostics: [...r.diagnostics, ...applied.diagnostics] };
  };
}
