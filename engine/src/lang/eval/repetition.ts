// What a `count.*` or `each.*` reference is told when it names an attribute those objects lack, or
// when no `count` or `for_each` gives it a value (OpenTofu's GetCountAttr and GetForEachAttr), for
// the validator, the evaluator and the console alike.
import { errorDiag, type Diagnostic, type Range } from "../../hcl/index.js";

/** The problem with `count.<name>` where `counted` says whether `count` is set, if any. */
export function countAttrProblem(name: string, counted: boolean, range: Range | undefined): Diagnostic | undefined {
  if (name !== "index") {
    return errorDiag(
      'Invalid "count" attribute',
      `The "count" object does not have an attribute named ${JSON.stringify(name)}. The only supported attribute is count.index, which is the index of each instance of a resource block that has the "count" argument set.`,
      range,
    );
  }
  if (counted) return undefined;
  return errorDiag('Reference to "count" in non-counted context', 'The "count" object can only be used in "module", "resource", and "data" blocks, and only when the "count" argument is set.', range);
}

/** The problem with `each.<name>` where `repeated` says whether `for_each` is set, if any. */
export function eachAttrProblem(name: string, repeated: boolean, range: Range | undefined): Diagnostic | undefined {
  if (name !== "key" && name !== "value") {
    return errorDiag(
      'Invalid "each" attribute',
      `The "each" object does not have an attribute named ${JSON.stringify(name)}. The supported attributes are each.key and each.value, the current key and value pair of the "for_each" attribute set.`,
      range,
    );
  }
  if (repeated) return undefined;
  // each.value has its own message, checked before the one for the object as a whole.
  if (name === "value") {
    return errorDiag(
      "each.value cannot be used in this context",
      'A reference to "each.value" has been used in a context in which it is unavailable, such as when the configuration no longer contains the value in its "for_each" expression. Remove this reference to each.value in your configuration to work around this error.',
      range,
    );
  }
  return errorDiag('Reference to "each" in context without for_each', 'The "each" object can be used only in "module" or "resource" blocks, and only when the "for_each" argument is set.', range);
}
