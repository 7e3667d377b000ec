// What a static evaluation is for (OpenTofu's StaticIdentifier): the subject named in messages
// ("local.x", "module.mod.source", "backend.local", "provider.test.multi.for_each"), the module
// it belongs to, and the range that "depends on" diagnostics underline.
import type { Range } from "../../hcl/index.js";

export interface StaticIdentifier {
  /** Module call names from the root; empty for the root module. */
  readonly module: readonly string[];
  readonly subject: string;
  /** Undefined only for identifiers made up by tests (OpenTofu's zero hcl.Range). */
  readonly declRange: Range | undefined;
}

/** `local.x` in the root module, `module.a.module.b:local.x` below it. */
export function staticIdentifierString(id: StaticIdentifier): string {
  if (id.module.length === 0) return id.subject;
  return `${id.module.map((m) => `module.${m}`).join(".")}:${id.subject}`;
}
