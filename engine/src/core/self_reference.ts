// OpenTofu's validateSelfRef, run as the plan walk reaches each resource instance (validate lets
// these pass): an argument may not refer to the instance being planned, nor to its whole
// resource. A reference naming both (an instance without a key) is reported once for each, as
// tofu does.
import { parseRef, type ResourceInstance } from "../addrs/index.js";
import type { ConfigBody } from "../configs/index.js";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import type { Block } from "../providers/index.js";
import { blockReferences } from "./schemabody.js";

export function selfReferences(addr: ResourceInstance, body: ConfigBody, schema: Block): Diagnostic[] {
  const own = [addr.toString(), addr.containingResource().toString()];
  const out: Diagnostic[] = [];
  for (const t of blockReferences(body, schema)) {
    const r = parseRef(t);
    if (!r.result || hasErrors(r.diagnostics)) continue;
    const subject = r.result.subject.toString();
    for (const name of own) {
      if (subject === name) out.push(errorDiag("Self-referential block", `Configuration for ${name} may not refer to itself.`, r.result.sourceRange));
    }
  }
  return out;
}
