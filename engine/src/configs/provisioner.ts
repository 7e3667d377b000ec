// `provisioner` and `connection` blocks inside resources (and `removed` blocks).
import { errorDiag, exprAsKeyword, formatRange, type BodySchema, type ContentBlock, type Diagnostic, type Range } from "../hcl/index.js";
import { configBodyJustAttributes, configBodyPartialContent, exprVariables, shimTraversalInString, unionBody, type ConfigBody } from "./body.js";

export interface Connection {
  config: ConfigBody;
  declRange: Range;
}

export type ProvisionerWhen = "create" | "destroy";
export type ProvisionerOnFailure = "continue" | "fail";

export interface Provisioner {
  type: string;
  config: ConfigBody;
  connection: Connection | undefined;
  when: ProvisionerWhen;
  onFailure: ProvisionerOnFailure;
  declRange: Range;
  typeRange: Range;
}

const provisionerBlockSchema: BodySchema = {
  attributes: [{ name: "when" }, { name: "on_failure" }],
  blocks: [
    { type: "_" }, // meta-argument escaping block
    { type: "connection" },
    { type: "lifecycle" }, // reserved for future use
  ],
};

export function decodeProvisionerBlock(block: ContentBlock): { provisioner: Provisioner | undefined; diagnostics: Diagnostic[] } {
  const { content, remain, diagnostics } = configBodyPartialContent(block.body, provisionerBlockSchema);
  const pv: Provisioner = {
    type: block.labels[0] ?? "",
    config: remain,
    connection: undefined,
    when: "create",
    onFailure: "fail",
    declRange: block.defRange,
    typeRange: block.labelRanges[0] ?? block.defRange,
  };
  switch (pv.type) {
    case "chef":
    case "habitat":
    case "puppet":
    case "salt-masterless":
      diagnostics.push(
        errorDiag(`The "${pv.type}" provisioner has been removed`, `The "${pv.type}" provisioner is deprecated and has been removed from OpenTofu.`, pv.typeRange),
      );
      return { provisioner: undefined, diagnostics };
  }

  const when = content.attributes.get("when");
  if (when) {
    const shim = shimTraversalInString(when.expr, true);
    diagnostics.push(...shim.diagnostics);
    switch (exprAsKeyword(shim.expr)) {
      case "create":
        pv.when = "create";
        break;
      case "destroy":
        pv.when = "destroy";
        break;
      default:
        diagnostics.push(errorDiag('Invalid "when" keyword', 'The "when" argument requires one of the following keywords: create or destroy.', shim.expr.range));
    }
  }
  // Destroy-time provisioners may refer only to their own resource.
  if (pv.when === "destroy") diagnostics.push(...onlySelfRefs(remain));

  const onFailure = content.attributes.get("on_failure");
  if (onFailure) {
    const shim = shimTraversalInString(onFailure.expr, true);
    diagnostics.push(...shim.diagnostics);
    switch (exprAsKeyword(shim.expr)) {
      case "continue":
        pv.onFailure = "continue";
        break;
      case "fail":
        pv.onFailure = "fail";
        break;
      default:
        diagnostics.push(
          errorDiag('Invalid "on_failure" keyword', 'The "on_failure" argument requires one of the following keywords: continue or fail.', onFailure.expr.range),
        );
    }
  }

  let seenConnection: ContentBlock | undefined;
  let seenEscape: ContentBlock | undefined;
  for (const b of content.blocks) {
    switch (b.type) {
      case "_":
        if (seenEscape) {
          diagnostics.push(
            errorDiag(
              "Duplicate escaping block",
              `The special block type "_" can be used to force particular arguments to be interpreted as provisioner-typpe-specific rather than as meta-arguments, but each provisioner block can have only one such block. The first escaping block was at ${formatRange(seenEscape.defRange)}.`,
              b.defRange,
            ),
          );
          continue;
        }
        seenEscape = b;
        pv.config = unionBody([pv.config, b.body]);
        break;
      case "connection":
        if (seenConnection) {
          diagnostics.push(
            errorDiag("Duplicate connection block", `This provisioner already has a connection block at ${formatRange(seenConnection.defRange)}.`, b.defRange),
          );
          continue;
        }
        seenConnection = b;
        if (pv.when === "destroy") diagnostics.push(...onlySelfRefs(b.body));
        pv.connection = { config: b.body, declRange: b.defRange };
        break;
      default:
        diagnostics.push(
          errorDiag(
            "Reserved block type name in provisioner block",
            `The block type name ${JSON.stringify(b.type)} is reserved for use by OpenTofu in a future version.`,
            b.typeRange,
          ),
        );
    }
  }
  return { provisioner: pv, diagnostics };
}

/** Destroy-time provisioners and their connections may use only self, count.index and each.key. */
export function onlySelfRefs(body: ConfigBody): Diagnostic[] {
  const diags: Diagnostic[] = [];
  const { attributes } = configBodyJustAttributes(body);
  for (const attr of attributes.values()) {
    for (const t of exprVariables(attr.expr)) {
      const root = t[0];
      const second = t[1];
      let valid = false;
      switch (root?.kind === "Root" ? root.name : "") {
        case "self":
        case "path":
        case "terraform":
        case "tofu":
          valid = true;
          break;
        case "count":
          valid = t.length === 2 && second?.kind === "Attr" && second.name === "index";
          break;
        case "each":
          valid = t.length === 2 && second?.kind === "Attr" && second.name === "key";
          break;
      }
      if (!valid) {
        diags.push(
          errorDiag(
            "Invalid reference from destroy provisioner",
            "Destroy-time provisioners and their connection configurations may only reference attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\nReferences to other resources during the destroy phase can cause dependency cycles and interact poorly with create_before_destroy.",
            attr.expr.range,
          ),
        );
      }
    }
  }
  return diags;
}
