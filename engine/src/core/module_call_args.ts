// A module call's arguments against the child's input variables, as OpenTofu's
// ModuleVariableTransformer decodes the call body while it builds the graph: every argument must
// be a declared variable (so a misspelt one, or `provider = ...`, is "Unsupported argument"), and
// every variable without a default must be set. The graph cannot be built otherwise, so validate
// and plan both stop here.
import { configBodyContent, type Config } from "../configs/index.js";
import type { BodySchema, Diagnostic } from "../hcl/index.js";

/** The problems with the arguments of one module's calls to children that are loaded. */
export function moduleCallArgumentDiagnostics(c: Config): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const call of c.module.moduleCalls.values()) {
    const child = c.children.get(call.name);
    if (!child) continue;
    const schema: BodySchema = {
      attributes: [...child.module.variables.values()].map((v) => ({ name: v.name, required: v.default === undefined })),
    };
    diagnostics.push(...configBodyContent(call.config, schema).diagnostics);
  }
  return diagnostics;
}
