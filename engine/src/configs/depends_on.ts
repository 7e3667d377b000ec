// `depends_on = [...]`: a static list of references, each kept as a traversal (quoted references
// from the 0.11 language are still accepted).
import { absTraversalForExpr, exprList, type ContentAttribute, type Diagnostic, type Traverser } from "../hcl/index.js";
import { shimTraversalInString } from "./body.js";

export function decodeDependsOn(attr: ContentAttribute): { dependsOn: Traverser[][]; diagnostics: Diagnostic[] } {
  const dependsOn: Traverser[][] = [];
  const { items, diagnostics } = exprList(attr.expr);
  for (const item of items) {
    const shim = shimTraversalInString(item);
    diagnostics.push(...shim.diagnostics);
    const t = absTraversalForExpr(shim.expr);
    diagnostics.push(...t.diagnostics);
    if (t.traversal.length > 0) dependsOn.push(t.traversal);
  }
  return { dependsOn, diagnostics };
}
