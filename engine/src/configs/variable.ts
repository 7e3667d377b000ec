// `variable` blocks: input variable declarations with their type constraint (and optional()
// defaults), default value, validations and flags.
import { discardedDefaultAttrWarnings } from "./discarded_attrs.js";
import { errorDiag, exprAsKeyword, type AnyExpression, type BodySchema, type ContentBlock, type Diagnostic, type Range } from "../hcl/index.js";
import {
  DynamicPseudoType,
  DynamicVal,
  applyDefaults,
  convert,
  formatPathError,
  isPrimitive,
  listOf,
  mapOf,
  withoutOptionalAttributesDeep,
  type Defaults,
  type Type,
  type Value,
} from "../values/index.js";
import { BAD_IDENTIFIER_DETAIL, configBodyContent, decodeBool, decodeString, exprIsNativeQuotedString, exprVariables, staticValue, validIdentifier } from "./body.js";
import { decodeCheckRuleBlock, type CheckRule } from "./check.js";
import { moduleBlockSchema } from "./modulecall.js";
import { typeConstraintForExpr } from "./typeexpr.js";

/** How a value given as a string on the command line or in the environment is read. */
export type VariableParsingMode = "literal" | "hcl";

export interface Variable {
  name: string;
  description: string;
  descriptionSet: boolean;
  /** The default, already converted to the type constraint; undefined when there is none (required). */
  default: Value | undefined;
  defaultExpr: AnyExpression | undefined;
  /** The concrete type (optional attributes removed); undefined only in override files that omit it. */
  type: Type | undefined;
  /** The type used for conversion, which may contain optional attributes. */
  constraintType: Type | undefined;
  typeDefaults: Defaults | undefined;
  typeExpr: AnyExpression | undefined;
  parsingMode: VariableParsingMode | undefined;
  validations: CheckRule[];
  sensitive: boolean;
  sensitiveSet: boolean;
  deprecated: string;
  /** Whether null is a valid value (the default). */
  nullable: boolean;
  nullableSet: boolean;
  ephemeral: boolean;
  ephemeralSet: boolean;
  /**
   * `const = true` requires the variable to be usable in static (init-time) evaluation,
   * `const = false` forbids that use; undefined (absent) allows it, as before the attribute existed.
   */
  const: boolean | undefined;
  declRange: Range;
}

const variableBlockSchema: BodySchema = {
  attributes: [
    { name: "description" },
    { name: "default" },
    { name: "type" },
    { name: "sensitive" },
    { name: "deprecated" },
    { name: "nullable" },
    { name: "ephemeral" },
    { name: "const" },
  ],
  blocks: [{ type: "validation" }],
};

/** Whether the variable must be given a value by its caller. */
export function variableRequired(v: Variable): boolean {
  return v.default === undefined;
}

export function decodeVariableBlock(block: ContentBlock, override: boolean): { variable: Variable; diagnostics: Diagnostic[] } {
  const v: Variable = {
    name: block.labels[0] ?? "",
    description: "",
    descriptionSet: false,
    default: undefined,
    defaultExpr: undefined,
    // Unless this is an override, these have defaults; in an override they stay unset so that
    // merging can tell whether they were given.
    type: override ? undefined : DynamicPseudoType,
    constraintType: override ? undefined : DynamicPseudoType,
    typeDefaults: undefined,
    typeExpr: undefined,
    parsingMode: override ? undefined : "literal",
    validations: [],
    sensitive: false,
    sensitiveSet: false,
    deprecated: "",
    nullable: true,
    nullableSet: false,
    ephemeral: false,
    ephemeralSet: false,
    const: undefined,
    declRange: block.defRange,
  };
  const { content, diagnostics } = configBodyContent(block.body, variableBlockSchema);
  const labelRange = block.labelRanges[0];

  if (!validIdentifier(v.name)) diagnostics.push(errorDiag("Invalid variable name", BAD_IDENTIFIER_DETAIL, labelRange));
  // Names that mean something inside a "module" block could not be set by a caller.
  for (const reserved of [...(moduleBlockSchema.attributes ?? []).map((a) => a.name), ...(moduleBlockSchema.blocks ?? []).map((b) => b.type)]) {
    if (reserved === v.name) {
      diagnostics.push(
        errorDiag("Invalid variable name", `The variable name ${JSON.stringify(reserved)} is reserved due to its special meaning inside module blocks.`, labelRange),
      );
    }
  }

  const desc = content.attributes.get("description");
  if (desc) {
    const r = decodeString(desc.expr);
    diagnostics.push(...r.diagnostics);
    v.description = r.value ?? "";
    v.descriptionSet = true;
  }

  const typeAttr = content.attributes.get("type");
  if (typeAttr) {
    const t = decodeVariableType(typeAttr.expr);
    diagnostics.push(...t.diagnostics);
    v.constraintType = t.type;
    v.typeDefaults = t.defaults;
    v.type = withoutOptionalAttributesDeep(t.type);
    v.parsingMode = t.parsingMode;
    v.typeExpr = typeAttr.expr;
  }

  const sens = content.attributes.get("sensitive");
  if (sens) {
    const r = decodeBool(sens.expr);
    diagnostics.push(...r.diagnostics);
    v.sensitive = r.value ?? false;
    v.sensitiveSet = true;
  }

  const dep = content.attributes.get("deprecated");
  if (dep) {
    const r = decodeString(dep.expr);
    diagnostics.push(...r.diagnostics);
    v.deprecated = r.value ?? "";
    if (r.value !== undefined && r.value.trim() === "") {
      diagnostics.push(
        errorDiag(
          "Invalid `deprecated` value",
          'The "deprecated" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated variable.',
          labelRange,
        ),
      );
    }
  }

  const nullable = content.attributes.get("nullable");
  if (nullable) {
    const r = decodeBool(nullable.expr);
    diagnostics.push(...r.diagnostics);
    v.nullable = r.value ?? true;
    v.nullableSet = true;
  }

  const eph = content.attributes.get("ephemeral");
  if (eph) {
    const r = decodeBool(eph.expr);
    diagnostics.push(...r.diagnostics);
    v.ephemeral = r.value ?? false;
    v.ephemeralSet = true;
  }

  const cst = content.attributes.get("const");
  if (cst) {
    const r = decodeBool(cst.expr);
    diagnostics.push(...r.diagnostics);
    v.const = r.value;
  }

  const def = content.attributes.get("default");
  if (def) {
    const r = staticValue(def.expr);
    diagnostics.push(...r.diagnostics);
    // Attributes of the default the type does not have (OpenTofu 1.11), whether or not it converts.
    if (v.constraintType) diagnostics.push(...discardedDefaultAttrWarnings(def.expr, v.constraintType));
    let val = r.value;
    // Without a type (only possible in an override file) conversion waits for the merge.
    if (v.constraintType) {
      // optional() defaults apply before conversion, except to a null default, so that a
      // nullable variable can default to null.
      if (v.typeDefaults && val.kind !== "null") val = applyDefaults(v.typeDefaults, val);
      const c = convert(val, v.constraintType);
      if (c.ok) val = c.value;
      else {
        diagnostics.push(
          errorDiag(
            "Invalid default value for variable",
            `This default value is not compatible with the variable's type constraint: ${formatPathError(c.error)}.`,
            def.expr.range,
          ),
        );
        val = DynamicVal;
      }
    }
    if (!v.nullable && val.kind === "null") {
      diagnostics.push(errorDiag("Invalid default value for variable", "A null default value is not valid when nullable=false.", def.expr.range));
    }
    v.default = val;
    v.defaultExpr = def.expr;
  }

  for (const b of content.blocks) {
    const r = decodeVariableValidationBlock(v.name, b, override);
    diagnostics.push(...r.diagnostics);
    v.validations.push(r.rule);
  }
  return { variable: v, diagnostics };
}

/** Decodes a variable's `type`, with the legacy quoted forms and the bare `list`/`map` shorthands. */
export function decodeVariableType(e: AnyExpression): { type: Type; defaults: Defaults | undefined; parsingMode: VariableParsingMode; diagnostics: Diagnostic[] } {
  if (exprIsNativeQuotedString(e)) {
    // The 0.11 language wrote type constraints in quotes; point the user to the modern form.
    const r = staticValue(e);
    if (r.diagnostics.some((d) => d.severity === "error")) return { type: DynamicPseudoType, defaults: undefined, parsingMode: "hcl", diagnostics: r.diagnostics };
    const str = r.value.kind === "string" ? r.value.value : "";
    const quoted = (detail: string, mode: VariableParsingMode) => ({
      type: DynamicPseudoType,
      defaults: undefined,
      parsingMode: mode,
      diagnostics: [errorDiag("Invalid quoted type constraints", detail, e.range)],
    });
    const prefix = "OpenTofu 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of OpenTofu.";
    switch (str) {
      case "string":
        return quoted(`${prefix} Remove the quotes around "string".`, "literal");
      case "list":
        return quoted(`${prefix} Remove the quotes around "list" and write list(string) instead to explicitly indicate that the list elements are strings.`, "hcl");
      case "map":
        return quoted(`${prefix} Remove the quotes around "map" and write map(string) instead to explicitly indicate that the map elements are strings.`, "hcl");
      default:
        return {
          type: DynamicPseudoType,
          defaults: undefined,
          parsingMode: "hcl",
          diagnostics: [
            errorDiag("Invalid legacy variable type hint", "To provide a full type expression, remove the surrounding quotes and give the type expression directly.", e.range),
          ],
        };
    }
  }
  // The pre-0.12 shorthands `list` and `map` mean a list or map of any single element type.
  switch (exprAsKeyword(e)) {
    case "list":
      return { type: listOf(DynamicPseudoType), defaults: undefined, parsingMode: "hcl", diagnostics: [] };
    case "map":
      return { type: mapOf(DynamicPseudoType), defaults: undefined, parsingMode: "hcl", diagnostics: [] };
  }
  const t = typeConstraintForExpr(e);
  if (t.diagnostics.some((d) => d.severity === "error")) return { type: DynamicPseudoType, defaults: undefined, parsingMode: "hcl", diagnostics: t.diagnostics };
  return { type: t.type, defaults: t.defaults, parsingMode: isPrimitive(t.type) ? "literal" : "hcl", diagnostics: t.diagnostics };
}

/** A check rule whose condition must refer to the variable itself, so it adds no graph edges. */
function decodeVariableValidationBlock(varName: string, block: ContentBlock, override: boolean): { rule: CheckRule; diagnostics: Diagnostic[] } {
  const r = decodeCheckRuleBlock(block, override);
  const cond = r.rule.condition;
  if (cond) {
    const good = exprVariables(cond).some((t) => {
      const root = t[0];
      const attr = t[1];
      return root?.kind === "Root" && root.name === "var" && attr?.kind === "Attr" && attr.name === varName;
    });
    if (!good) {
      r.diagnostics.push(
        errorDiag(
          "Invalid variable validation condition",
          `The condition for variable ${JSON.stringify(varName)} must refer to var.${varName} in order to test incoming values.`,
          cond.range,
        ),
      );
    }
  }
  return r;
}
