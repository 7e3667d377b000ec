// OpenTofu 1.11's lint for module calls: an attribute written in an object constructor for a
// module call's argument (at any depth the variable's type reaches) that the variable's object type
// does not have is dropped by the type conversion — most likely a typo, so the validate walk (which
// plan runs first) warns, once per call.
import { configBodyJustAttributes, discardedAttrSuggestion, discardedObjectConstructorAttrs, type Config } from "../configs/index.js";
import type { Diagnostic } from "../hcl/index.js";
import { formatPath } from "../values/index.js";

/** The warnings for one module's calls. */
export function ignoredObjectAttributes(c: Config): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const call of c.module.moduleCalls.values()) {
    const child = c.children.get(call.name);
    if (!child) continue;
    for (const [name, attr] of configBodyJustAttributes(call.config).attributes) {
      const type = child.module.variables.get(name)?.constraintType;
      if (!type) continue;
      for (const d of discardedObjectConstructorAttrs(attr.expr, type)) {
        const nested = d.path.length > 0 ? ` nested value ${formatPath(d.path)}` : "";
        diagnostics.push({
          severity: "warning",
          summary: "Object attribute is ignored",
          detail: `The object type for input variable ${JSON.stringify(name)}${nested} does not include an attribute named ${JSON.stringify(d.name)}, so this definition is unused.${discardedAttrSuggestion(d)}`,
          subject: d.nameRange,
          context: d.contextRange,
        });
      }
    }
  }
  return diagnostics;
}
