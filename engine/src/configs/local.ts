// `locals` blocks: each argument is one named local value.
import { errorDiag, type AnyExpression, type ContentBlock, type Diagnostic, type Range } from "../hcl/index.js";
import { BAD_IDENTIFIER_DETAIL, configBodyJustAttributes, validIdentifier } from "./body.js";

export interface Local {
  name: string;
  expr: AnyExpression;
  declRange: Range;
}

export function decodeLocalsBlock(block: ContentBlock): { locals: Local[]; diagnostics: Diagnostic[] } {
  const { attributes, diagnostics } = configBodyJustAttributes(block.body);
  const locals: Local[] = [];
  for (const [name, attr] of attributes) {
    if (!validIdentifier(name)) diagnostics.push(errorDiag("Invalid local value name", BAD_IDENTIFIER_DETAIL, attr.nameRange));
    locals.push({ name, expr: attr.expr, declRange: attr.range });
  }
  return { locals, diagnostics };
}
