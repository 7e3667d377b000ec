// References in expressions (OpenTofu's addrs.ParseRef): the object a traversal such as
// `aws_instance.web[0].id` or `module.net.vpc_id` names, the source range of that part, and the
// rest of the traversal (`.id`), which the evaluator applies to the object's value.
import { errorDiag, hasErrors, rangeBetween, type Diagnostic, type Range, type Traverser } from "../hcl/index.js";
import { BigFloat, goQuote } from "../values/index.js";
import { NoKey, instanceKeyFromLiteral, type InstanceKey } from "./instancekey.js";
import { ModuleCall, ModuleCallInstance, ModuleCallInstanceOutput } from "./modulecall.js";
import {
  CountAttr,
  ForEachAttr,
  FunctionNamespaceProvider,
  IdentTerraform,
  IdentTofu,
  InputVariable,
  LocalValue,
  PathAttr,
  Self,
  TerraformAttr,
  parseFunction,
  type Referenceable,
} from "./referenceable.js";
import { Resource, ResourceInstance, type ResourceMode } from "./resource.js";
import type { AddrResult } from "./result.js";
import { parseTraversalAbs, traversalRange, type Traversal } from "./traversal.js";

export interface Reference {
  subject: Referenceable;
  /** Where the subject part of the traversal was written; undefined only in error results. */
  sourceRange: Range | undefined;
  /** The steps after the subject (`.id` in `aws_instance.web.id`); empty when none. */
  remaining: Traverser[];
}

/** A reference approximately as it would be written, for messages (OpenTofu's DisplayString). */
export function referenceDisplayString(ref: Reference): string {
  let out = ref.subject.toString();
  for (const step of ref.remaining) {
    switch (step.kind) {
      case "Root":
        out += step.name;
        break;
      case "Attr":
        out += `.${step.name}`;
        break;
      case "Index": {
        let key = "";
        if (step.key.type === "string") key = goQuote(step.key.value);
        else if (step.key.type === "number") key = BigFloat.parse(step.key.text)?.text("g", 10) ?? step.key.text;
        out += `[${key}]`;
        break;
      }
    }
  }
  return out;
}

type RefResult = AddrResult<Reference>;

function invalid(detail: string, subject: Range | undefined, summary = "Invalid reference"): RefResult {
  return { result: undefined, diagnostics: [errorDiag(summary, detail, subject)] };
}

/**
 * `<root>.<name>` objects such as `var.x`. A malformed one still yields a reference with an empty
 * name alongside the error, as OpenTofu's does (the evaluator validates that name first).
 */
function parseSingleAttrRef(traversal: Traversal, makeAddr: (name: string) => Referenceable): RefResult {
  const root = traversal[0] as Traverser;
  const rootName = root.kind === "Index" ? "" : root.name;
  const next = traversal[1];
  if (!next) {
    const diagnostics = [
      errorDiag("Invalid reference", `The ${goQuote(rootName)} object cannot be accessed directly. Instead, access one of its attributes.`, root.range),
    ];
    return { result: { subject: makeAddr(""), sourceRange: undefined, remaining: [] }, diagnostics };
  }
  if (next.kind === "Attr") {
    return { result: { subject: makeAddr(next.name), sourceRange: rangeBetween(root.range, next.range), remaining: traversal.slice(2) }, diagnostics: [] };
  }
  const diagnostics = [errorDiag("Invalid reference", `The ${goQuote(rootName)} object does not support this operation.`, next.range)];
  return { result: { subject: makeAddr(""), sourceRange: undefined, remaining: [] }, diagnostics };
}

const RESOURCE_WHAT: Record<ResourceMode, string> = { managed: "a resource type", data: "a data source", ephemeral: "an ephemeral resource" };

/** `<type>.<name>[<key>]` (after any `data.` / `ephemeral.` / `resource.` prefix). */
function parseResourceRef(mode: ResourceMode, startRange: Range, traversal: Traversal): RefResult {
  const typeStep = traversal[0] as Traverser;
  const nameStep = traversal[1];
  if (!nameStep) {
    return invalid(
      "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.",
      traversalRange(traversal),
    );
  }
  if (typeStep.kind === "Index") return invalid('The "data" object does not support this operation.', typeStep.range);
  if (nameStep.kind !== "Attr") {
    return invalid(`A reference to ${RESOURCE_WHAT[mode]} must be followed by at least one attribute access, specifying the resource name.`, nameStep.range);
  }
  const resource = new Resource(mode, typeStep.name, nameStep.name);
  let rng = rangeBetween(startRange, nameStep.range);
  let remain = traversal.slice(2);
  const idx = remain[0];
  if (!idx) return { result: { subject: resource, sourceRange: rng, remaining: [] }, diagnostics: [] };
  let key: InstanceKey = NoKey;
  if (idx.kind === "Index") {
    const k = instanceKeyFromLiteral(idx.key);
    if (k.error !== undefined) return invalid(`Invalid index for resource instance: ${k.error}.`, idx.range, "Invalid index key");
    key = k.key;
    remain = remain.slice(1);
    rng = rangeBetween(rng, idx.range);
  }
  return { result: { subject: new ResourceInstance(resource, key), sourceRange: rng, remaining: remain }, diagnostics: [] };
}

/** `module.<call>`, `module.<call>[<key>]`, `module.<call>[<key>].<output>`. */
function parseModuleCallRef(traversal: Traversal): RefResult {
  const callRef = parseSingleAttrRef(traversal, (name) => new ModuleCallInstance(new ModuleCall(name), NoKey));
  if (hasErrors(callRef.diagnostics) || !callRef.result) return { result: undefined, diagnostics: callRef.diagnostics };
  const callInstance = callRef.result.subject as ModuleCallInstance;
  const callRange = callRef.result.sourceRange as Range;
  let remain = callRef.result.remaining;
  if (remain.length === 0) return { result: { subject: callInstance.call, sourceRange: callRange, remaining: [] }, diagnostics: [] };

  let inst = callInstance;
  const idx = remain[0];
  let rng = callRange;
  if (idx && idx.kind === "Index") {
    const k = instanceKeyFromLiteral(idx.key);
    if (k.error !== undefined) return invalid(`Invalid index for module instance: ${k.error}.`, idx.range, "Invalid index key");
    inst = new ModuleCallInstance(callInstance.call, k.key);
    remain = remain.slice(1);
    rng = rangeBetween(callRange, idx.range);
    if (remain.length === 0) return { result: { subject: inst, sourceRange: rng, remaining: [] }, diagnostics: [] };
  }
  const attr = remain[0];
  if (attr && attr.kind === "Attr") {
    return {
      result: { subject: new ModuleCallInstanceOutput(inst, attr.name), sourceRange: rangeBetween(callRange, attr.range), remaining: remain.slice(1) },
      diagnostics: [],
    };
  }
  return invalid("Module instance objects do not support this operation.", attr?.range);
}

const RESERVED = new Set(["template", "lazy", "arg"]);

/**
 * The object an absolute traversal refers to. Errors use OpenTofu's texts; for `var`, `local`
 * and the other single-attribute objects an error still comes with an empty-named subject.
 */
export function parseRef(traversal: Traversal): RefResult {
  const root = traversal[0];
  if (!root || root.kind === "Index") throw new Error("parseRef requires an absolute traversal");
  const rootRange = root.range;
  const whole = traversalRange(traversal);
  switch (root.name) {
    case "count":
      return parseSingleAttrRef(traversal, (n) => new CountAttr(n));
    case "each":
      return parseSingleAttrRef(traversal, (n) => new ForEachAttr(n));
    case "data":
      if (traversal.length < 3) {
        return invalid('The "data" object must be followed by two attribute names: the data source type and the resource name.', whole);
      }
      return parseResourceRef("data", rootRange, traversal.slice(1));
    case "ephemeral":
      if (traversal.length < 3) {
        return invalid('The "ephemeral" object must be followed by two attribute names: the ephemeral resource type and its name.', whole);
      }
      return parseResourceRef("ephemeral", rootRange, traversal.slice(1));
    case "resource":
      // An escape hatch: `resource.foo.bar` keeps meaning a resource even if a later language
      // edition reserves `foo`.
      if (traversal.length < 3) {
        return invalid('The "resource" object must be followed by two attribute names: the resource type and the resource name.', whole);
      }
      return parseResourceRef("managed", rootRange, traversal.slice(1));
    case "local":
      return parseSingleAttrRef(traversal, (n) => new LocalValue(n));
    case "module":
      return parseModuleCallRef(traversal);
    case "path":
      return parseSingleAttrRef(traversal, (n) => new PathAttr(n));
    case "self":
      return { result: { subject: Self, sourceRange: rootRange, remaining: traversal.slice(1) }, diagnostics: [] };
    case "terraform":
      return parseSingleAttrRef(traversal, (n) => new TerraformAttr(n, IdentTerraform));
    case "tofu":
      return parseSingleAttrRef(traversal, (n) => new TerraformAttr(n, IdentTofu));
    case "var":
      return parseSingleAttrRef(traversal, (n) => new InputVariable(n));
    default: {
      if (RESERVED.has(root.name)) {
        return invalid(
          `The symbol name ${goQuote(root.name)} is reserved for use in a future OpenTofu version. If you are using a provider that already uses this as a resource type name, add the prefix "resource." to force interpretation as a resource type name.`,
          rootRange,
          "Reserved symbol name",
        );
      }
      const fn = parseFunction(root.name);
      if (fn.isNamespace(FunctionNamespaceProvider)) {
        const pf = fn.asProviderFunction();
        if (pf.error !== undefined) return invalid(pf.error, rootRange, "Unable to parse provider function");
        return { result: { subject: pf.fn, sourceRange: rootRange, remaining: [] }, diagnostics: [] };
      }
      return parseResourceRef("managed", rootRange, traversal);
    }
  }
}

/** parseRef on a string (no meaningful source ranges). */
export function parseRefStr(str: string): RefResult {
  const parsed = parseTraversalAbs(str);
  if (hasErrors(parsed.diagnostics)) return { result: undefined, diagnostics: parsed.diagnostics };
  const r = parseRef(parsed.traversal);
  const diagnostics: Diagnostic[] = [...parsed.diagnostics, ...r.diagnostics];
  return { result: r.result, diagnostics };
}
