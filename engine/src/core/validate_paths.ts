// The attribute paths a resource's `lifecycle` block names, checked against provider schemas as
// OpenTofu's NodeValidatableResource does: each ignore_changes path against the resource's own
// type (configschema's StaticValidateTraversal, plus the "Redundant ignore_changes element"
// warning for attributes only the provider sets), and the attribute part of each
// replace_triggered_by reference against the schema of the resource it refers to.
import type { Reference } from "../addrs/index.js";
import { validIdentifier, type Resource } from "../configs/index.js";
import { errorDiag, hasErrors, type Diagnostic, type Traverser } from "../hcl/index.js";
import { nameSuggestion, traverseRel } from "../lang/eval/index.js";
import { attributeImpliedType, type Attribute, type Block, type NestedBlock } from "../providers/index.js";
import { formatPath, numberIntVal, stringVal, unknownVal } from "../values/index.js";
import type { RepetitionData } from "./expand.js";
import { replaceTriggerReference, traversalToPath } from "./lifecycle.js";

/** The schema of the resource a replace_triggered_by reference names, when it is known. */
export type ReferencedSchema = (ref: Reference) => Block | undefined;

/** Every ignore_changes and replace_triggered_by path of a managed resource whose body is valid. */
export function validateLifecyclePaths(r: Resource, schema: Block, referenced: ReferencedSchema): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const traversal of r.managed?.ignoreChanges ?? []) {
    diagnostics.push(...staticValidateTraversal(schema, traversal));
    // Checked only while every path so far is valid, as OpenTofu checks its accumulated diagnostics.
    if (hasErrors(diagnostics)) continue;
    const path = traversalToPath(traversal);
    const attr = attributeByPath(schema, traversal);
    if (attr && !attr.optional && attr.computed) {
      diagnostics.push({
        severity: "warning",
        summary: "Redundant ignore_changes element",
        detail: `Adding an attribute name to ignore_changes tells OpenTofu to ignore future changes to the argument in configuration after the object has been created, retaining the value originally configured.\n\nThe attribute ${formatPath(path).replace(/^\./, "")} is decided by the provider alone and therefore there can be no configured value to compare with. Including this attribute in ignore_changes has no effect. Remove the attribute from ignore_changes to quiet this warning.`,
        subject: r.typeRange,
      });
    }
  }
  // The instance key's value does not matter here, only that count.index / each.key resolve.
  const rep: RepetitionData = r.count ? { countIndex: numberIntVal(0) } : r.forEach ? { eachKey: stringVal("") } : {};
  for (const expr of r.triggersReplacement) {
    const { ref, diagnostics: refDiags } = replaceTriggerReference(expr, rep);
    if (!ref) {
      diagnostics.push(...refDiags);
      continue;
    }
    if (ref.remaining.length === 0) continue;
    const errs = staticValidateTraversal(referenced(ref) ?? schema, ref.remaining).filter((d) => d.severity === "error");
    diagnostics.push(...errs);
  }
  return diagnostics;
}

/**
 * configschema's Block.StaticValidateTraversal: whether a relative traversal names something the
 * block has. Optimistic: steps into an attribute's value are checked against an unknown value of
 * its type, so only what is certain to fail is reported.
 */
export function staticValidateTraversal(b: Block, traversal: readonly Traverser[]): Diagnostic[] {
  const [next, ...after] = traversal;
  if (!next) return [];
  if (next.kind === "Index") {
    const k = next.key;
    if (k.type === "string" && validIdentifier(k.value)) {
      return [errorDiag("Invalid index operation", `Only attribute access is allowed here. Did you mean to access attribute ${JSON.stringify(k.value)} using the dot operator?`, next.range)];
    }
    return [errorDiag("Invalid index operation", "Only attribute access is allowed here, using the dot operator.", next.range)];
  }
  const name = next.name;
  const attr = b.attributes.get(name);
  if (attr) {
    const diagnostics: Diagnostic[] = [];
    if (attr.deprecated) {
      diagnostics.push({
        severity: "warning",
        summary: "Deprecated attribute",
        detail: `The attribute ${JSON.stringify(name)} is deprecated. Refer to the provider documentation for details.`,
        subject: next.range,
      });
    }
    diagnostics.push(...traverseRel(unknownVal(attributeImpliedType(attr)), after).diagnostics);
    return diagnostics;
  }
  const nested = b.blockTypes.get(name);
  if (nested) return nestedBlockTraversal(name, nested, after);
  const s = nameSuggestion(name, [...b.attributes.keys(), ...b.blockTypes.keys()].sort());
  return [
    errorDiag(
      "Unsupported attribute",
      `This object has no argument, nested block, or exported attribute named ${JSON.stringify(name)}.${s ? ` Did you mean ${JSON.stringify(s)}?` : ""}`,
      next.range,
    ),
  ];
}

function nestedBlockTraversal(typeName: string, nb: NestedBlock, traversal: readonly Traverser[]): Diagnostic[] {
  if (nb.nesting === "single" || nb.nesting === "group") return staticValidateTraversal(nb.block, traversal);
  const [next, ...after] = traversal;
  if (!next) return [];
  switch (nb.nesting) {
    case "set":
      return [
        errorDiag(
          "Cannot index a set value",
          `Block type ${JSON.stringify(typeName)} is represented by a set of objects, and set elements do not have addressable keys. To find elements matching specific criteria, use a "for" expression with an "if" clause.`,
          next.range,
        ),
      ];
    case "list":
      if (next.kind === "Index") return staticValidateTraversal(nb.block, after);
      return [
        errorDiag(
          "Invalid operation",
          `Block type ${JSON.stringify(typeName)} is represented by a list of objects, so it must be indexed using a numeric key, like .${typeName}[0].`,
          next.range,
        ),
      ];
    case "map":
      // Attribute and index steps both select an element; a wrongly typed key fails later.
      return staticValidateTraversal(nb.block, after);
  }
}

/** configschema's Block.AttributeByPath: the attribute a path ends at, through nested blocks and nested attribute types. */
function attributeByPath(b: Block, traversal: readonly Traverser[]): Attribute | undefined {
  let block: Block | undefined = b;
  let attrs: ReadonlyMap<string, Attribute> | undefined;
  let found: Attribute | undefined;
  for (const step of traversal) {
    if (step.kind === "Index") continue;
    if (found) {
      // Only a nested attribute type has attributes of its own.
      attrs = found.nestedType?.attributes;
      found = attrs?.get(step.name);
      if (!found) return undefined;
      continue;
    }
    if (!block) return undefined;
    const a = block.attributes.get(step.name);
    if (a) {
      found = a;
      block = undefined;
      continue;
    }
    block = block.blockTypes.get(step.name)?.block;
    if (!block) return undefined;
  }
  return found;
}
