// `removed` blocks: an object leaves the configuration, destroyed or only forgotten.
import { parseRemoveEndpoint } from "../addrs/index.js";
import { absTraversalForExpr, errorDiag, formatRange, type BodySchema, type ContentBlock, type Diagnostic, type Range, type Traverser } from "../hcl/index.js";
import { configBodyContent, decodeBool } from "./body.js";
import { decodeProvisionerBlock, type Connection, type Provisioner } from "./provisioner.js";
import { parseStaticAddr, type StaticAddr } from "./refaddr.js";

export interface Removed {
  from: Traverser[] | undefined;
  fromAddr: StaticAddr | undefined;
  /** Whether to destroy the object rather than only forget it (false unless `destroy = true`). */
  destroy: boolean;
  destroySet: boolean;
  /** Destroy-time provisioners, only for managed resources. */
  provisioners: Provisioner[];
  connection: Connection | undefined;
  declRange: Range;
}

const removedBlockSchema: BodySchema = {
  attributes: [{ name: "from", required: true }],
  blocks: [{ type: "lifecycle" }, { type: "connection" }, { type: "provisioner", labelNames: ["type"] }],
};

const removedLifecycleBlockSchema: BodySchema = { attributes: [{ name: "destroy" }] };

export function decodeRemovedBlock(block: ContentBlock): { removed: Removed; diagnostics: Diagnostic[] } {
  const removed: Removed = {
    from: undefined,
    fromAddr: undefined,
    // OpenTofu keeps "forget" as the default, for compatibility with removed blocks before `destroy`.
    destroy: false,
    destroySet: false,
    provisioners: [],
    connection: undefined,
    declRange: block.defRange,
  };
  const { content, diagnostics } = configBodyContent(block.body, removedBlockSchema);
  const from = content.attributes.get("from");
  if (from) {
    const t = absTraversalForExpr(from.expr);
    diagnostics.push(...t.diagnostics);
    if (!t.diagnostics.some((d) => d.severity === "error")) {
      // OpenTofu's ParseRemoveEndpoint says what a removed block may name: a module or a whole
      // managed resource, never an instance of either, nor a data or ephemeral resource.
      const endpoint = parseRemoveEndpoint(t.traversal);
      diagnostics.push(...endpoint.diagnostics);
      removed.from = t.traversal;
      if (endpoint.result) removed.fromAddr = parseStaticAddr(t.traversal).addr;
    }
  }
  const managed = removed.fromAddr?.resource?.mode === "managed";
  let seenLifecycle: ContentBlock | undefined;
  let seenConnection: ContentBlock | undefined;
  for (const b of content.blocks) {
    switch (b.type) {
      case "lifecycle": {
        if (seenLifecycle) {
          diagnostics.push(errorDiag("Duplicate lifecycle block", `The removed block already has a lifecycle block at ${formatRange(seenLifecycle.defRange)}.`, b.defRange));
          continue;
        }
        seenLifecycle = b;
        const lc = configBodyContent(b.body, removedLifecycleBlockSchema);
        diagnostics.push(...lc.diagnostics);
        const destroy = lc.content.attributes.get("destroy");
        if (destroy) {
          const v = decodeBool(destroy.expr);
          diagnostics.push(...v.diagnostics);
          removed.destroy = v.value ?? false;
          removed.destroySet = true;
        }
        break;
      }
      case "connection":
        if (!managed) {
          diagnostics.push(
            errorDiag("Invalid connection block", "Provisioner connection configuration is valid only when a removed block targets a managed resource.", b.defRange),
          );
          continue;
        }
        if (seenConnection) {
          diagnostics.push(errorDiag("Duplicate connection block", `This "removed" block already has a connection block at ${formatRange(seenConnection.defRange)}.`, b.defRange));
          continue;
        }
        seenConnection = b;
        removed.connection = { config: b.body, declRange: b.defRange };
        break;
      default: {
        if (!managed) {
          diagnostics.push(errorDiag("Invalid provisioner block", "Provisioners are valid only when a removed block targets a managed resource.", b.defRange));
          continue;
        }
        const pv = decodeProvisionerBlock(b);
        diagnostics.push(...pv.diagnostics);
        if (!pv.provisioner) continue;
        removed.provisioners.push(pv.provisioner);
        if (pv.provisioner.when !== "destroy") {
          diagnostics.push(
            errorDiag(
              "Invalid provisioner block",
              'Only destroy-time provisioners are valid in "removed" blocks. To declare a destroy-time provisioner, use:\n    when = destroy',
              b.defRange,
            ),
          );
        }
      }
    }
  }
  return { removed, diagnostics };
}
