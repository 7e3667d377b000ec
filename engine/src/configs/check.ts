// Check rules (variable `validation`, resource and output `precondition`/`postcondition`, check
// `assert`) and `check` blocks with their optional scoped data resource.
import { errorDiag, formatRange, type AnyExpression, type BodySchema, type ContentBlock, type Diagnostic, type Range } from "../hcl/index.js";
import { BAD_IDENTIFIER_DETAIL, configBodyContent, exprVariables, validIdentifier } from "./body.js";
import { decodeDataBlock, type Resource } from "./resource.js";

export interface CheckRule {
  /** Must evaluate to true when the condition holds. */
  condition: AnyExpression | undefined;
  errorMessage: AnyExpression | undefined;
  declRange: Range;
}

const checkRuleBlockSchema: BodySchema = {
  attributes: [
    { name: "condition", required: true },
    { name: "error_message", required: true },
  ],
};

export function decodeCheckRuleBlock(block: ContentBlock, override: boolean): { rule: CheckRule; diagnostics: Diagnostic[] } {
  const rule: CheckRule = { condition: undefined, errorMessage: undefined, declRange: block.defRange };
  if (override) {
    // Overriding checks is forbidden for now, to keep the design simple (as in OpenTofu).
    return {
      rule,
      diagnostics: [errorDiag(`Can't override ${block.type} blocks`, `Override files cannot override ${JSON.stringify(block.type)} blocks.`, block.defRange)],
    };
  }
  const { content, diagnostics } = configBodyContent(block.body, checkRuleBlockSchema);
  const cond = content.attributes.get("condition");
  if (cond) {
    rule.condition = cond.expr;
    if (exprVariables(cond.expr).length === 0) {
      diagnostics.push(
        errorDiag(
          `Invalid ${block.type} expression`,
          "The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.",
          cond.expr.range,
        ),
      );
    }
  }
  const msg = content.attributes.get("error_message");
  if (msg) rule.errorMessage = msg.expr;
  return { rule, diagnostics };
}

/** A `check` block: zero or one scoped data resource and one or more assertions. */
export interface Check {
  name: string;
  dataResource: Resource | undefined;
  asserts: CheckRule[];
  declRange: Range;
}

const checkBlockSchema: BodySchema = {
  blocks: [{ type: "data", labelNames: ["type", "name"] }, { type: "assert" }],
};

export function decodeCheckBlock(block: ContentBlock, override: boolean): { check: Check; diagnostics: Diagnostic[] } {
  const check: Check = { name: block.labels[0] ?? "", dataResource: undefined, asserts: [], declRange: block.defRange };
  if (override) {
    return { check, diagnostics: [errorDiag("Can't override check blocks", "Override files cannot override check blocks.", block.defRange)] };
  }
  const { content, diagnostics } = configBodyContent(block.body, checkBlockSchema);
  if (!validIdentifier(check.name)) {
    diagnostics.push(errorDiag("Invalid check block name", BAD_IDENTIFIER_DETAIL, block.labelRanges[0]));
  }
  for (const b of content.blocks) {
    if (b.type === "data") {
      if (check.dataResource) {
        diagnostics.push(
          errorDiag(
            "Multiple data resource blocks",
            `This check block already has a data resource defined at ${formatRange(check.dataResource.declRange)}.`,
            b.defRange,
          ),
        );
        continue;
      }
      const r = decodeDataBlock(b, override, true);
      diagnostics.push(...r.diagnostics);
      if (!r.diagnostics.some((d) => d.severity === "error")) {
        r.resource.container = { kind: "check", name: check.name };
        check.dataResource = r.resource;
      }
    } else {
      const r = decodeCheckRuleBlock(b, override);
      diagnostics.push(...r.diagnostics);
      if (!r.diagnostics.some((d) => d.severity === "error")) check.asserts.push(r.rule);
    }
  }
  if (check.asserts.length === 0) {
    diagnostics.push(errorDiag("Zero assert blocks", "Check blocks must have at least one assert block.", check.declRange));
  }
  return { check, diagnostics };
}

/** Diagnostics for references from a resource's own conditions to the resource itself. */
export function validateSelfReferences(rule: CheckRule, checkType: string, resourceMode: "managed" | "data" | "ephemeral", type: string, name: string): Diagnostic[] {
  const diags: Diagnostic[] = [];
  const addr = resourceMode === "data" ? `data.${type}.${name}` : resourceMode === "ephemeral" ? `ephemeral.${type}.${name}` : `${type}.${name}`;
  for (const expr of [rule.condition, rule.errorMessage]) {
    if (!expr) continue;
    for (const t of exprVariables(expr)) {
      const names = t.map((s) => (s.kind === "Index" ? undefined : s.name));
      let refMode: string | undefined;
      let refType: string | undefined;
      let refName: string | undefined;
      if (names[0] === "data" || names[0] === "ephemeral") [refMode, refType, refName] = names;
      else {
        refMode = "managed";
        [refType, refName] = names;
      }
      if (refMode === resourceMode && refType === type && refName === name) {
        diags.push(errorDiag(`Invalid reference in ${checkType}`, `Configuration for ${addr} may not refer to itself.`, expr.range));
        break;
      }
    }
  }
  return diags;
}
