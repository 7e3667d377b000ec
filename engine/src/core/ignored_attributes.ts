// OpenTofu 1.11's lint for module calls: an attribute written in an object constructor that is a
// module call's argument, but that the variable's object type does not have, is dropped by the
// type conversion — most likely a typo, so validate (and plan, which validates first) warns.
import { configBodyJustAttributes, type Config } from "../configs/index.js";
import { evaluateWithoutContext } from "../configs/inputvars/index.js";
import { hasErrors, type Diagnostic } from "../hcl/index.js";
import { nameSuggestion } from "../lang/eval/index.js";
import { StringType, convert, unmark } from "../values/index.js";

/** The warnings for one module's calls. */
export function ignoredObjectAttributes(c: Config): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const call of c.module.moduleCalls.values()) {
    const child = c.children.get(call.name);
    if (!child) continue;
    for (const [name, attr] of configBodyJustAttributes(call.config).attributes) {
      // Only a constructor written right there: an object defined elsewhere may rightly carry more.
      if (attr.expr.kind !== "Object") continue;
      const type = child.module.variables.get(name)?.constraintType;
      if (type?.kind !== "object") continue;
      const known = [...type.attributes.keys()].sort();
      for (const item of attr.expr.items) {
        // Literal keys only; a key computed from other values is not checked.
        const key = evaluateWithoutContext(item.key);
        if (hasErrors(key.diagnostics)) continue;
        const str = convert(unmark(key.value)[0], StringType);
        if (!str.ok || str.value.kind !== "string" || type.attributes.has(str.value.value)) continue;
        const similar = nameSuggestion(str.value.value, known);
        diagnostics.push({
          severity: "warning",
          summary: "Object attribute is ignored",
          detail: `The object type for input variable ${JSON.stringify(name)} does not include an attribute named ${JSON.stringify(str.value.value)}, so this definition is unused.${similar ? ` Did you mean to set attribute ${JSON.stringify(similar)} instead?` : ""}`,
          subject: item.key.range,
        });
      }
    }
  }
  return diagnostics;
}
