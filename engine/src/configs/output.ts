// `output` blocks: a module's output values.
import { errorDiag, type AnyExpression, type BodySchema, type ContentBlock, type Diagnostic, type Range, type Traverser } from "../hcl/index.js";
import { BAD_IDENTIFIER_DETAIL, configBodyContent, decodeBool, decodeString, validIdentifier } from "./body.js";
import { decodeCheckRuleBlock, type CheckRule } from "./check.js";
import { decodeDependsOn } from "./depends_on.js";
import { schemaForOverrides } from "./schema.js";

export interface Output {
  name: string;
  description: string;
  descriptionSet: boolean;
  expr: AnyExpression | undefined;
  dependsOn: Traverser[][];
  sensitive: boolean;
  sensitiveSet: boolean;
  deprecated: string;
  ephemeral: boolean;
  ephemeralSet: boolean;
  preconditions: CheckRule[];
  declRange: Range;
}

const outputBlockSchema: BodySchema = {
  attributes: [
    { name: "description" },
    { name: "value", required: true },
    { name: "depends_on" },
    { name: "sensitive" },
    { name: "deprecated" },
    { name: "ephemeral" },
  ],
  blocks: [{ type: "precondition" }, { type: "postcondition" }],
};

export function decodeOutputBlock(block: ContentBlock, override: boolean): { output: Output; diagnostics: Diagnostic[] } {
  const o: Output = {
    name: block.labels[0] ?? "",
    description: "",
    descriptionSet: false,
    expr: undefined,
    dependsOn: [],
    sensitive: false,
    sensitiveSet: false,
    deprecated: "",
    ephemeral: false,
    ephemeralSet: false,
    preconditions: [],
    declRange: block.defRange,
  };
  const { content, diagnostics } = configBodyContent(block.body, override ? schemaForOverrides(outputBlockSchema) : outputBlockSchema);
  if (!validIdentifier(o.name)) diagnostics.push(errorDiag("Invalid output name", BAD_IDENTIFIER_DETAIL, block.labelRanges[0]));

  const desc = content.attributes.get("description");
  if (desc) {
    const r = decodeString(desc.expr);
    diagnostics.push(...r.diagnostics);
    o.description = r.value ?? "";
    o.descriptionSet = true;
  }
  const value = content.attributes.get("value");
  if (value) o.expr = value.expr;
  const sens = content.attributes.get("sensitive");
  if (sens) {
    const r = decodeBool(sens.expr);
    diagnostics.push(...r.diagnostics);
    o.sensitive = r.value ?? false;
    o.sensitiveSet = true;
  }
  const dep = content.attributes.get("deprecated");
  if (dep) {
    const r = decodeString(dep.expr);
    diagnostics.push(...r.diagnostics);
    o.deprecated = r.value ?? "";
    if (r.value !== undefined && r.value.trim() === "") {
      diagnostics.push(
        errorDiag(
          "Invalid `deprecated` attribute",
          'The "deprecated" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated output value.',
          dep.expr.range,
        ),
      );
    }
  }
  const eph = content.attributes.get("ephemeral");
  if (eph) {
    const r = decodeBool(eph.expr);
    diagnostics.push(...r.diagnostics);
    o.ephemeral = r.value ?? false;
    o.ephemeralSet = true;
  }
  const deps = content.attributes.get("depends_on");
  if (deps) {
    const r = decodeDependsOn(deps);
    diagnostics.push(...r.diagnostics);
    o.dependsOn.push(...r.dependsOn);
  }
  for (const b of content.blocks) {
    if (b.type === "precondition") {
      const r = decodeCheckRuleBlock(b, override);
      diagnostics.push(...r.diagnostics);
      o.preconditions.push(r.rule);
    } else {
      diagnostics.push(errorDiag("Postconditions are not allowed", "Output values can only have preconditions, not postconditions.", b.typeRange));
    }
  }
  return { output: o, diagnostics };
}
