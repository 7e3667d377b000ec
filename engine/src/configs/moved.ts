// `moved` blocks: records that an object now has another address.
import { absTraversalForExpr, errorDiag, type BodySchema, type ContentBlock, type Diagnostic, type Range, type Traverser } from "../hcl/index.js";
import { configBodyContent } from "./body.js";
import { parseStaticAddr, type StaticAddr } from "./refaddr.js";

export interface Moved {
  /** The endpoints as written; the addrs module parses them into move endpoints. */
  from: Traverser[] | undefined;
  to: Traverser[] | undefined;
  fromAddr: StaticAddr | undefined;
  toAddr: StaticAddr | undefined;
  declRange: Range;
}

const movedBlockSchema: BodySchema = {
  attributes: [
    { name: "from", required: true },
    { name: "to", required: true },
  ],
};

export function decodeMovedBlock(block: ContentBlock): { moved: Moved; diagnostics: Diagnostic[] } {
  const moved: Moved = { from: undefined, to: undefined, fromAddr: undefined, toAddr: undefined, declRange: block.defRange };
  const { content, diagnostics } = configBodyContent(block.body, movedBlockSchema);
  for (const which of ["from", "to"] as const) {
    const attr = content.attributes.get(which);
    if (!attr) continue;
    const t = absTraversalForExpr(attr.expr);
    diagnostics.push(...t.diagnostics);
    if (t.diagnostics.some((d) => d.severity === "error")) continue;
    const a = parseStaticAddr(t.traversal);
    diagnostics.push(...a.diagnostics);
    moved[which] = t.traversal;
    if (which === "from") moved.fromAddr = a.addr;
    else moved.toAddr = a.addr;
  }
  // Moves go from module to module or from resource to resource; the rest is checked at runtime.
  if (!diagnostics.some((d) => d.severity === "error") && moved.fromAddr && moved.toAddr) {
    if ((moved.fromAddr.resource === undefined) !== (moved.toAddr.resource === undefined)) {
      diagnostics.push(
        errorDiag('Invalid "moved" addresses', 'The "from" and "to" addresses must either both refer to resources or both refer to modules.', moved.declRange),
      );
    }
  }
  return { moved, diagnostics };
}
