// The `backend` block's configuration decoded with static evaluation (OpenTofu's Backend.Hash
// and Backend.Decode): the subject is `backend.<type>`; sensitive or ephemeral values are
// refused, because the configuration is stored in .terraform/terraform.tfstate and plan files.
import { errorDiag, hasErrors, type Diagnostic } from "../../hcl/index.js";
import { EPHEMERAL, SENSITIVE, unmarkDeep, type Value } from "../../values/index.js";
import type { Backend } from "../backend.js";
import { decodeStaticBlock, noneRequired, staticBlockContext, type StaticBlockSchema } from "./blockspec.js";
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
 * What OpenTofu's Backend.Hash reports: the configuration's references, checked with every
 * argument optional. The hash itself (cty's, which tofu writes into .terraform/terraform.tfstate)
 * is computed by the CLI's backend state (cli/backend.ts) from the decoded configuration.
 */
export function checkBackendReferences(b: Backend, evaluator: StaticEvaluator, schema: StaticBlockSchema): Diagnostic[] {
  return staticBlockContext(evaluator, b.config, noneRequired(schema), backendIdentifier(b)).diagnostics;
}
