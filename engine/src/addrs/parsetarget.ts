// Parsing the addresses users type on the command line (`-target`, `-exclude`, `-replace`,
// `state rm` ...): a module instance path optionally followed by a resource and instance key.
import { errorDiag, hasErrors, type Diagnostic, type Range } from "../hcl/index.js";
import { NoKey, instanceKeyFromLiteral, type InstanceKey } from "./instancekey.js";
import { Module, parseModulePrefix } from "./module.js";
import { ModuleInstance, parseModuleInstancePrefix } from "./moduleinstance.js";
import { AbsResource, AbsResourceInstance, ConfigResource, Resource, ResourceInstance, type ResourceMode } from "./resource.js";
import type { AddrResult } from "./result.js";
import type { Targetable } from "./targetable.js";
import { parseTraversalAbs, traversalRange, traversalRootName, type Traversal } from "./traversal.js";

/** A targetable address with the source range it was written at. */
export interface Target {
  subject: Targetable;
  sourceRange: Range | undefined;
}

/** The mode a leading `data.` or `ephemeral.` selects, and the traversal after it. */
function splitMode(remain: Traversal): { mode: ResourceMode; rest: Traversal } {
  switch (traversalRootName(remain)) {
    case "data":
      return { mode: "data", rest: remain.slice(1) };
    case "ephemeral":
      return { mode: "ephemeral", rest: remain.slice(1) };
    default:
      return { mode: "managed", rest: remain };
  }
}

const NAME_REQUIRED: Record<ResourceMode, string> = {
  managed: "A resource type name is required.",
  data: "A data source name is required.",
  ephemeral: "An ephemeral resource name is required.",
};

/** `<type>.<name>` at the start of a traversal (which has had any module path removed). */
function parseResourceTypeAndName(remain: Traversal, mode: ResourceMode): { type: string; name: string; diagnostics: Diagnostic[] } {
  const fail = (detail: string, subject: Range | undefined) => ({ type: "", name: "", diagnostics: [errorDiag("Invalid address", detail, subject)] });
  const typeStep = remain[0];
  const nameStep = remain[1];
  if (!typeStep || !nameStep) return fail("Resource specification must include a resource type and name.", traversalRange(remain));
  if (typeStep.kind === "Index") return fail(NAME_REQUIRED[mode], typeStep.range);
  if (nameStep.kind !== "Attr") return fail("A resource name is required.", nameStep.range);
  return { type: typeStep.name, name: nameStep.name, diagnostics: [] };
}

/** A resource instance (or a no-key instance) after a module instance path. */
export function parseResourceInstanceUnderModule(module: ModuleInstance, remain: Traversal): AddrResult<AbsResourceInstance> {
  const { mode, rest } = splitMode(remain);
  const tn = parseResourceTypeAndName(rest, mode);
  if (hasErrors(tn.diagnostics)) return { result: undefined, diagnostics: tn.diagnostics };
  const after = rest.slice(2);
  const resource = new Resource(mode, tn.type, tn.name);
  const keyStep = after[0];
  if (!keyStep) return { result: new AbsResourceInstance(module, new ResourceInstance(resource, NoKey)), diagnostics: [] };
  if (after.length > 1) {
    return { result: undefined, diagnostics: [errorDiag("Invalid address", "Unexpected extra operators after address.", after[1]?.range)] };
  }
  if (keyStep.kind !== "Index") {
    return { result: undefined, diagnostics: [errorDiag("Invalid address", "Resource instance key must be given in square brackets.", keyStep.range)] };
  }
  const k = instanceKeyFromLiteral(keyStep.key);
  if (k.error !== undefined) {
    return { result: undefined, diagnostics: [errorDiag("Invalid address", `Invalid resource instance key: ${k.error}.`, keyStep.range)] };
  }
  const key: InstanceKey = k.key;
  return { result: new AbsResourceInstance(module, new ResourceInstance(resource, key)), diagnostics: [] };
}

/** A resource (no instance key allowed) after a static module path. */
export function parseResourceUnderModule(module: Module, remain: Traversal): AddrResult<ConfigResource> {
  const { mode, rest } = splitMode(remain);
  const tn = parseResourceTypeAndName(rest, mode);
  if (hasErrors(tn.diagnostics)) return { result: undefined, diagnostics: tn.diagnostics };
  const after = rest.slice(2);
  if (after.length === 0) return { result: new ConfigResource(module, new Resource(mode, tn.type, tn.name)), diagnostics: [] };
  if (after.length === 1) {
    return {
      result: undefined,
      diagnostics: [
        errorDiag(
          "Resource instance address with keys is not allowed",
          'Resource address cannot be a resource instance (e.g. "null_resource.a[0]"), it must be a resource instead (e.g. "null_resource.a").',
          after[0]?.range,
        ),
      ],
    };
  }
  return { result: undefined, diagnostics: [errorDiag("Invalid address", "Unexpected extra operators after address.", after[1]?.range)] };
}

/**
 * A target: a module instance, a whole resource, or one resource instance. A resource without a
 * key means the whole resource (for targeting the difference does not matter).
 */
export function parseTarget(traversal: Traversal): AddrResult<Target> {
  const prefix = parseModuleInstancePrefix(traversal);
  if (hasErrors(prefix.diagnostics)) return { result: undefined, diagnostics: prefix.diagnostics };
  const sourceRange = traversalRange(traversal);
  if (prefix.remain.length === 0) return { result: { subject: prefix.module, sourceRange }, diagnostics: prefix.diagnostics };
  const ri = parseResourceInstanceUnderModule(prefix.module, prefix.remain);
  const diagnostics = [...prefix.diagnostics, ...ri.diagnostics];
  if (!ri.result || hasErrors(diagnostics)) return { result: undefined, diagnostics };
  const subject: Targetable = ri.result.resource.key.kind === "NoKey" ? ri.result.containingResource() : ri.result;
  return { result: { subject, sourceRange }, diagnostics };
}

function fromString<T>(str: string, parse: (t: Traversal) => AddrResult<T>): AddrResult<T> {
  const parsed = parseTraversalAbs(str);
  if (hasErrors(parsed.diagnostics)) return { result: undefined, diagnostics: parsed.diagnostics };
  const r = parse(parsed.traversal);
  return { result: r.result, diagnostics: [...parsed.diagnostics, ...r.diagnostics] };
}

export function parseTargetStr(str: string): AddrResult<Target> {
  return fromString(str, parseTarget);
}

/** A whole resource; an instance key or a bare module path gets a specific error. */
export function parseAbsResource(traversal: Traversal): AddrResult<AbsResource> {
  const t = parseTarget(traversal);
  if (!t.result) return { result: undefined, diagnostics: t.diagnostics };
  const { diagnostics } = t;
  const subject = t.result.subject;
  switch (subject.kind) {
    case "AbsResource":
      return { result: subject, diagnostics };
    case "AbsResourceInstance":
      // The key must be the last step, since that is the only place one is valid.
      diagnostics.push(
        errorDiag(
          "Invalid address",
          "A resource address is required. This instance key identifies a specific resource instance, which is not expected here.",
          traversal[traversal.length - 1]?.range,
        ),
      );
      return { result: undefined, diagnostics };
    case "ModuleInstance":
      diagnostics.push(
        errorDiag("Invalid address", "A resource address is required here. The module path must be followed by a resource specification.", traversalRange(traversal)),
      );
      return { result: undefined, diagnostics };
    default:
      diagnostics.push(errorDiag("Invalid address", "A resource address is required here.", traversalRange(traversal)));
      return { result: undefined, diagnostics };
  }
}

export function parseAbsResourceStr(str: string): AddrResult<AbsResource> {
  return fromString(str, parseAbsResource);
}

/** A resource instance; a resource without a key is its no-key instance. */
export function parseAbsResourceInstance(traversal: Traversal): AddrResult<AbsResourceInstance> {
  const t = parseTarget(traversal);
  if (!t.result) return { result: undefined, diagnostics: t.diagnostics };
  const { diagnostics } = t;
  const subject = t.result.subject;
  switch (subject.kind) {
    case "AbsResource":
      return { result: subject.instance(NoKey), diagnostics };
    case "AbsResourceInstance":
      return { result: subject, diagnostics };
    case "ModuleInstance":
      diagnostics.push(
        errorDiag(
          "Invalid address",
          "A resource instance address is required here. The module path must be followed by a resource instance specification.",
          traversalRange(traversal),
        ),
      );
      return { result: undefined, diagnostics };
    default:
      diagnostics.push(errorDiag("Invalid address", "A resource address is required here.", traversalRange(traversal)));
      return { result: undefined, diagnostics };
  }
}

export function parseAbsResourceInstanceStr(str: string): AddrResult<AbsResourceInstance> {
  return fromString(str, parseAbsResourceInstance);
}

/** A resource in the static module tree: no keys on modules or the resource. */
export function parseConfigResource(traversal: Traversal): AddrResult<ConfigResource> {
  const prefix = parseModulePrefix(traversal);
  if (hasErrors(prefix.diagnostics)) return { result: undefined, diagnostics: prefix.diagnostics };
  if (prefix.remain.length === 0) {
    return {
      result: undefined,
      diagnostics: [
        ...prefix.diagnostics,
        errorDiag(
          "Module address is not allowed",
          "Expected reference to either resource or data block. Provided reference appears to be a module.",
          traversalRange(traversal),
        ),
      ],
    };
  }
  const r = parseResourceUnderModule(prefix.module, prefix.remain);
  return { result: r.result, diagnostics: [...prefix.diagnostics, ...r.diagnostics] };
}

export function parseConfigResourceStr(str: string): AddrResult<ConfigResource> {
  return fromString(str, parseConfigResource);
}
