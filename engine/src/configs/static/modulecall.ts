// A `module` block's static fields (OpenTofu's ModuleCall.decodeStaticFields): `source` and
// `version` evaluated in the calling module, and the child's variable values — the call's
// arguments, evaluated in the caller with identifiers such as `module.child:var.x`.
import { errorDiag, hasErrors, type ContentAttribute, type Diagnostic } from "../../hcl/index.js";
import { configBodyJustAttributes, configBodyMissingItemRange } from "../body.js";
import { setModuleSource, type ModuleCall } from "../modulecall.js";
import { variableRequired } from "../variable.js";
import { decodeVersionConstraintValue } from "../version_constraint.js";
import type { StaticModuleCall, StaticModuleVariables } from "./call.js";
import type { StaticEvaluator } from "./evaluator.js";

/** Whether decodeModuleBlock left the source for static evaluation. */
function sourcePending(mc: ModuleCall): boolean {
  return mc.sourceExpr !== undefined && mc.sourceAddr === undefined && mc.sourceAddrRaw === "";
}

/** Whether decodeModuleBlock left the version for static evaluation. */
function versionPending(mc: ModuleCall): boolean {
  return mc.versionExpr !== undefined && mc.version.declRange === undefined;
}

/** The `version` argument of the call (an override may have replaced its expression). */
function versionAttribute(mc: ModuleCall): ContentAttribute | undefined {
  const expr = mc.versionExpr;
  if (!expr) return undefined;
  const attr = mc.versionAttr;
  if (attr && attr.expr === expr) return attr;
  return { name: "version", expr, range: expr.range, nameRange: expr.range };
}

/** Decodes what decodeModuleBlock could not: source and version from variables and locals. */
export function decodeModuleCallStaticFields(mc: ModuleCall, evaluator: StaticEvaluator): Diagnostic[] {
  const addr = evaluator.call.addr;
  const versionDiags: Diagnostic[] = [];
  const attr = versionAttribute(mc);
  if (attr && versionPending(mc)) {
    const r = evaluator.evaluate(attr.expr, { module: addr, subject: `module.${mc.name}.version`, declRange: attr.range });
    versionDiags.push(...r.diagnostics);
    if (!hasErrors(r.diagnostics)) {
      const v = decodeVersionConstraintValue(attr, r.value);
      versionDiags.push(...v.diagnostics);
      mc.version = v.constraint;
      // A null version means no constraint: the source is then not taken as a registry address.
      if (r.value.kind === "null" && !hasErrors(v.diagnostics)) {
        mc.hasVersion = false;
        mc.version = { required: [], raw: "", declRange: undefined };
        mc.versionAttr = undefined;
        mc.versionExpr = undefined;
      }
    }
  }

  const diagnostics: Diagnostic[] = [];
  const source = mc.sourceExpr;
  if (source && sourcePending(mc)) {
    const r = evaluator.decodeString(source, { module: addr, subject: `module.${mc.name}.source`, declRange: source.range });
    diagnostics.push(...r.diagnostics);
    if (!hasErrors(r.diagnostics) && r.value !== undefined) diagnostics.push(...setModuleSource(mc, r.value, source.range));
  }
  return [...diagnostics, ...versionDiags];
}

/** The child's variables: each argument of the call evaluated in the caller, or the default. */
export function moduleCallVariables(mc: ModuleCall, parent: StaticEvaluator): StaticModuleVariables {
  const { attributes } = configBodyJustAttributes(mc.config);
  const childAddr = [...parent.call.addr, mc.name];
  return (variable) => {
    const attr = attributes.get(variable.name);
    if (!attr) {
      if (variableRequired(variable)) {
        return { value: undefined, diagnostics: [errorDiag("Missing required variable in module call", "", configBodyMissingItemRange(mc.config))] };
      }
      return { value: variable.default, diagnostics: [] };
    }
    const r = parent.evaluate(attr.expr, { module: childAddr, subject: `var.${variable.name}`, declRange: attr.range });
    return { value: r.value, diagnostics: r.diagnostics };
  };
}

/** The StaticModuleCall for a child module, from its caller's evaluator. */
export function childModuleCall(mc: ModuleCall, parent: StaticEvaluator): StaticModuleCall {
  // Root path, workspace, cwd and functions are the same for the whole tree.
  return { ...parent.call, addr: [...parent.call.addr, mc.name], vars: moduleCallVariables(mc, parent) };
}
