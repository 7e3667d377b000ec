// The `backend` block's configuration decoded with static evaluation (OpenTofu's Backend.Hash
// and Backend.Decode): the subject is `backend.<type>`; sensitive or ephemeral values are
// refused, because the configuration is stored in .terraform/terraform.tfstate and plan files.
import { errorDiag, hasErrors, type Diagnostic } from "../../hcl/index.js";
import { EPHEMERAL, SENSITIVE, unknownVal, unmarkDeep, type Value } from "../../values/index.js";
import type { Backend } from "../backend.js";
import { decodeStaticBlock, impliedType, noneRequired, staticBlockContext, type StaticBlockSchema } from "./blockspec.js";
import type { StaticEvaluator } from "./evaluator.js";
import type { StaticIdentifier } from "./identifier.js";

function backendIdentifier(b: Backend): StaticIdentifier {
  return { module: [], subject: `backend.${b.type}`, declRange: b.declRange };
}

function storedDetail(kind: string): string {
  return `The backend configuration is stored in .terraform/terraform.tfstate as well as plan files. It is recommended to instead supply ${kind} credentials via backend specific environment variables`;
}

/** Backend.Decode: the configuration as an object of the schema's implied type. */
export function decodeBackendConfig(b: Backend, evaluator: StaticEvaluator, schema: StaticBlockSchema): { value: Value; diagnostics: Diagnostic[] } {
  const r = decodeStaticBlock(evaluator, b.config, schema, backendIdentifier(b));
  if (hasErrors(r.diagnostics)) return r;
  const [, marks] = unmarkDeep(r.value);
  if (marks.has(SENSITIVE)) {
    return { value: r.value, diagnostics: [...r.diagnostics, errorDiag("Backend config contains sensitive values", storedDetail("sensitive"), b.declRange)] };
  }
  if (marks.has(EPHEMERAL)) {
    return { value: r.value, diagnostics: [...r.diagnostics, errorDiag("Backend config contains ephemeral values", storedDetail("ephemeral"), b.declRange)] };
  }
  return r;
}

/**
 * Backend.Hash: a hash of the type and the configuration with every argument optional, to tell
 * whether the backend changed since `init`. Only reference problems are reported here; the
 * decode itself is best effort.
 */
export function backendConfigHash(b: Backend, evaluator: StaticEvaluator, schema: StaticBlockSchema): { hash: number; diagnostics: Diagnostic[] } {
  const lax = noneRequired(schema);
  const diagnostics = staticBlockContext(evaluator, b.config, lax, backendIdentifier(b)).diagnostics;
  const decoded = decodeStaticBlock(evaluator, b.config, lax, backendIdentifier(b));
  const val = hasErrors(decoded.diagnostics) ? unknownVal(impliedType(lax)) : unmarkDeep(decoded.value)[0];
  return { hash: fnv1a(`${JSON.stringify(b.type)}:${stableString(val)}`), diagnostics };
}

function stableString(v: Value): string {
  switch (v.kind) {
    case "unknown":
      return "?";
    case "null":
      return "null";
    case "string":
      return JSON.stringify(v.value);
    case "number":
      return v.value.text("g", 40);
    case "bool":
      return String(v.value);
    case "list":
    case "set":
    case "tuple":
      return `[${v.elements.map(stableString).join(",")}]`;
    case "map":
    case "object":
      return `{${[...v.attrs].map(([k, x]) => `${JSON.stringify(k)}:${stableString(x)}`).join(",")}}`;
  }
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
