// `resource`, `data` and `ephemeral` blocks: meta-arguments (count, for_each, provider,
// depends_on), lifecycle, provisioners and connection; the rest of the body is kept for the
// resource type's schema.
import { impliedProviderLocalName, parseRef, type Provider as ProviderAddr, type Reference } from "../addrs/index.js";
import {
  errorDiag,
  hasErrors,
  exprAsKeyword,
  exprList,
  formatRange,
  type AnyExpression,
  type AttributeSchema,
  type BodySchema,
  type ContentAttribute,
  type ContentBlock,
  type Diagnostic,
  type Range,
  type Traverser,
} from "../hcl/index.js";
import {
  BAD_IDENTIFIER_DETAIL,
  configBodyContent,
  configBodyPartialContent,
  decodeBool,
  exprVariables,
  jsonExprAsNative,
  relTraversalForExpr,
  shimTraversalInString,
  staticValue,
  unionBody,
  validIdentifier,
  type ConfigBody,
} from "./body.js";
import { decodeCheckRuleBlock, validateSelfReferences, type CheckRule } from "./check.js";
import { decodeDependsOn } from "./depends_on.js";
import { decodeProviderConfigRef, type ProviderConfigRef } from "./provider.js";
import { decodeProvisionerBlock, onlySelfRefs, type Connection, type Provisioner } from "./provisioner.js";

export type ResourceMode = "managed" | "data" | "ephemeral";

export interface ManagedResource {
  connection: Connection | undefined;
  provisioners: Provisioner[];
  createBeforeDestroy: boolean;
  preventDestroy: boolean;
  /** Relative traversals (`tags["x"]`, `ami`). */
  ignoreChanges: Traverser[][];
  ignoreAllChanges: boolean;
  createBeforeDestroySet: boolean;
  preventDestroySet: boolean;
  /** `lifecycle { destroy = false }`: objects are forgotten (left in place) instead of destroyed. */
  destroy: boolean;
  destroySet: boolean;
}

/** What a scoped resource belongs to: a data block inside a `check` block. */
export interface ResourceContainer {
  kind: "check";
  name: string;
}

export interface Resource {
  mode: ResourceMode;
  type: string;
  name: string;
  /** The resource-type-specific arguments. */
  config: ConfigBody;
  count: AnyExpression | undefined;
  forEach: AnyExpression | undefined;
  providerConfigRef: ProviderConfigRef | undefined;
  /** The provider (from `provider` or implied by the type), set when the module is assembled. */
  provider: ProviderAddr | undefined;
  preconditions: CheckRule[];
  postconditions: CheckRule[];
  dependsOn: Traverser[][];
  triggersReplacement: AnyExpression[];
  /** `lifecycle { enabled = ... }`: whether the single instance exists (evaluated later). */
  enabled: AnyExpression | undefined;
  /** Present only for managed resources. */
  managed: ManagedResource | undefined;
  container: ResourceContainer | undefined;
  declRange: Range;
  typeRange: Range;
}

/** The address relative to the module: `aws_instance.a`, `data.x.y`, `ephemeral.x.y`. */
export function resourceAddrString(r: Pick<Resource, "mode" | "type" | "name">): string {
  switch (r.mode) {
    case "managed":
      return `${r.type}.${r.name}`;
    case "data":
      return `data.${r.type}.${r.name}`;
    case "ephemeral":
      return `ephemeral.${r.type}.${r.name}`;
  }
}

/** The local name of the provider configuration the resource uses. */
export function resourceProviderConfigName(r: Resource): string {
  return r.providerConfigRef ? r.providerConfigRef.name : impliedProviderLocalName(r.type);
}

const commonResourceAttributes: AttributeSchema[] = [{ name: "count" }, { name: "for_each" }, { name: "provider" }, { name: "depends_on" }];

export const resourceBlockSchema: BodySchema = {
  attributes: commonResourceAttributes,
  blocks: [
    { type: "locals" }, // reserved for future use
    { type: "lifecycle" },
    { type: "connection" },
    { type: "provisioner", labelNames: ["type"] },
    { type: "_" }, // meta-argument escaping block
  ],
};

const dataBlockSchema: BodySchema = {
  attributes: commonResourceAttributes,
  blocks: [
    { type: "lifecycle" },
    { type: "locals" }, // reserved for future use
    { type: "_" }, // meta-argument escaping block
  ],
};

const resourceLifecycleBlockSchema: BodySchema = {
  // Valid for both managed and data lifecycle blocks as far as HCL is concerned; the stricter
  // rules are checked after decoding, for better messages.
  attributes: [{ name: "create_before_destroy" }, { name: "prevent_destroy" }, { name: "ignore_changes" }, { name: "replace_triggered_by" }, { name: "enabled" }, { name: "destroy" }],
  blocks: [{ type: "precondition" }, { type: "postcondition" }],
};

const COUNT_AND_FOR_EACH = 'The "count" and "for_each" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.';

/** `enabled` beside `count` or `for_each`: OpenTofu's "Invalid combination" errors, on `enabled`. */
export function enabledCombinationDiagnostics(hasCount: boolean, hasForEach: boolean, enabled: ContentAttribute | undefined, instancesOf: string): Diagnostic[] {
  if (!enabled) return [];
  const out: Diagnostic[] = [];
  for (const [name, has] of [["count", hasCount], ["for_each", hasForEach]] as const) {
    if (!has) continue;
    out.push(
      errorDiag(
        `Invalid combination of "${name}" and "enabled"`,
        `The "${name}" and "enabled" meta-arguments are mutually-exclusive. Only one should be used to be explicit about the number of ${instancesOf} to be created.`,
        enabled.range,
      ),
    );
  }
  return out;
}

function newResource(mode: ResourceMode, block: ContentBlock): Resource {
  return {
    mode,
    type: block.labels[0] ?? "",
    name: block.labels[1] ?? "",
    config: block.body,
    count: undefined,
    forEach: undefined,
    providerConfigRef: undefined,
    provider: undefined,
    preconditions: [],
    postconditions: [],
    dependsOn: [],
    triggersReplacement: [],
    enabled: undefined,
    managed: undefined,
    container: undefined,
    declRange: block.defRange,
    typeRange: block.labelRanges[0] ?? block.defRange,
  };
}

function escapeBlockDiag(kind: string, what: string, first: ContentBlock, b: ContentBlock): Diagnostic {
  return errorDiag(
    "Duplicate escaping block",
    `The special block type "_" can be used to force particular arguments to be interpreted as ${kind} rather than as meta-arguments, but each ${what} block can have only one such block. The first escaping block was at ${formatRange(first.defRange)}.`,
    b.defRange,
  );
}

function decodeLifecycleConditions(r: Resource, lcBlocks: ContentBlock[], override: boolean, diags: Diagnostic[]): void {
  for (const b of lcBlocks) {
    const cr = decodeCheckRuleBlock(b, override);
    diags.push(...cr.diagnostics);
    diags.push(...validateSelfReferences(cr.rule, b.type, r.mode, r.type, r.name));
    if (b.type === "precondition") r.preconditions.push(cr.rule);
    else r.postconditions.push(cr.rule);
  }
}

/** The managed-resource settings of a `resource` block that sets no lifecycle, connection or provisioner. */
export function defaultManagedResource(): ManagedResource {
  return {
    connection: undefined,
    provisioners: [],
    createBeforeDestroy: false,
    preventDestroy: false,
    ignoreChanges: [],
    ignoreAllChanges: false,
    createBeforeDestroySet: false,
    preventDestroySet: false,
    destroy: true,
    destroySet: false,
  };
}

export function decodeResourceBlock(block: ContentBlock, override: boolean): { resource: Resource; diagnostics: Diagnostic[] } {
  const r = newResource("managed", block);
  const managed = defaultManagedResource();
  r.managed = managed;
  const { content, remain, diagnostics } = configBodyPartialContent(block.body, resourceBlockSchema);
  r.config = remain;

  if (!validIdentifier(r.type)) diagnostics.push(errorDiag("Invalid resource type name", BAD_IDENTIFIER_DETAIL, block.labelRanges[0]));
  if (!validIdentifier(r.name)) diagnostics.push(errorDiag("Invalid resource name", BAD_IDENTIFIER_DETAIL, block.labelRanges[1]));
  decodeCommonMetaArguments(r, content.attributes, false, diagnostics);

  let seenLifecycle: ContentBlock | undefined;
  let seenConnection: ContentBlock | undefined;
  let seenEscape: ContentBlock | undefined;
  for (const b of content.blocks) {
    switch (b.type) {
      case "lifecycle": {
        if (seenLifecycle) {
          diagnostics.push(errorDiag("Duplicate lifecycle block", `This resource already has a lifecycle block at ${formatRange(seenLifecycle.defRange)}.`, b.defRange));
          continue;
        }
        seenLifecycle = b;
        const lc = configBodyContent(b.body, resourceLifecycleBlockSchema);
        diagnostics.push(...lc.diagnostics);
        const cbd = lc.content.attributes.get("create_before_destroy");
        if (cbd) {
          const v = decodeBool(cbd.expr);
          diagnostics.push(...v.diagnostics);
          managed.createBeforeDestroy = v.value ?? false;
          managed.createBeforeDestroySet = true;
        }
        const pd = lc.content.attributes.get("prevent_destroy");
        if (pd) {
          const v = decodeBool(pd.expr);
          diagnostics.push(...v.diagnostics);
          managed.preventDestroy = v.value ?? false;
          managed.preventDestroySet = true;
        }
        const ds = lc.content.attributes.get("destroy");
        if (ds) {
          const v = decodeBool(ds.expr);
          diagnostics.push(...v.diagnostics);
          managed.destroy = v.value ?? true;
          managed.destroySet = true;
        }
        const rtb = lc.content.attributes.get("replace_triggered_by");
        if (rtb) {
          const t = decodeReplaceTriggeredBy(rtb.expr);
          diagnostics.push(...t.diagnostics);
          r.triggersReplacement.push(...t.exprs);
        }
        const ic = lc.content.attributes.get("ignore_changes");
        if (ic) decodeIgnoreChanges(managed, ic.expr, diagnostics);
        r.enabled = lc.content.attributes.get("enabled")?.expr;
        diagnostics.push(...enabledCombinationDiagnostics(!!r.count, !!r.forEach, lc.content.attributes.get("enabled"), "resources"));
        decodeLifecycleConditions(r, lc.content.blocks, override, diagnostics);
        break;
      }
      case "connection":
        if (seenConnection) {
          diagnostics.push(errorDiag("Duplicate connection block", `This resource already has a connection block at ${formatRange(seenConnection.defRange)}.`, b.defRange));
          continue;
        }
        seenConnection = b;
        managed.connection = { config: b.body, declRange: b.defRange };
        break;
      case "provisioner": {
        const pv = decodeProvisionerBlock(b);
        diagnostics.push(...pv.diagnostics);
        if (pv.provisioner) managed.provisioners.push(pv.provisioner);
        break;
      }
      case "_":
        if (seenEscape) {
          diagnostics.push(escapeBlockDiag("resource-type-specific", "resource", seenEscape, b));
          continue;
        }
        seenEscape = b;
        r.config = unionBody([r.config, b.body]);
        break;
      default:
        diagnostics.push(
          errorDiag(
            "Reserved block type name in resource block",
            `The block type name ${JSON.stringify(b.type)} is reserved for use by OpenTofu in a future version.`,
            b.typeRange,
          ),
        );
    }
  }
  // A connection used by a destroy-time provisioner may refer only to the resource itself.
  if (managed.connection && managed.provisioners.some((p) => p.when === "destroy")) {
    diagnostics.push(...onlySelfRefs(managed.connection.config));
  }
  return { resource: r, diagnostics };
}

function decodeCommonMetaArguments(
  r: Resource,
  attrs: Map<string, ContentAttribute>,
  nested: boolean,
  diagnostics: Diagnostic[],
): void {
  const count = attrs.get("count");
  if (count) {
    if (nested) {
      diagnostics.push(errorDiag('Invalid "count" attribute', 'The "count" and "for_each" meta-arguments are not supported within nested data blocks.', count.nameRange));
    } else r.count = count.expr;
  }
  const forEach = attrs.get("for_each");
  if (forEach) {
    if (nested) {
      diagnostics.push(errorDiag('Invalid "for_each" attribute', 'The "count" and "for_each" meta-arguments are not supported within nested data blocks.', forEach.nameRange));
    } else {
      r.forEach = forEach.expr;
      if (r.count) diagnostics.push(errorDiag('Invalid combination of "count" and "for_each"', COUNT_AND_FOR_EACH, forEach.nameRange));
    }
  }
  const provider = attrs.get("provider");
  if (provider) {
    const p = decodeProviderConfigRef(provider.expr, "provider");
    diagnostics.push(...p.diagnostics);
    r.providerConfigRef = p.ref;
  }
  const deps = attrs.get("depends_on");
  if (deps) {
    const d = decodeDependsOn(deps);
    diagnostics.push(...d.diagnostics);
    r.dependsOn.push(...d.dependsOn);
  }
}

function isIgnoreChangesStar(e: AnyExpression): boolean {
  if (e.kind !== "Template" && e.kind !== "JSONExpr") return false;
  const v = staticValue(e);
  return v.value.kind === "string" && v.value.value === "*";
}

function decodeIgnoreChanges(managed: ManagedResource, expr: AnyExpression, diagnostics: Diagnostic[]): void {
  // Either a list of relative traversals or the keyword `all`; the legacy ["*"] is an error.
  if (exprAsKeyword(expr) === "all") {
    managed.ignoreAllChanges = true;
    return;
  }
  const list = exprList(expr);
  diagnostics.push(...list.diagnostics);
  let ignoreAllRange: Range | undefined;
  for (const item of list.items) {
    if (isIgnoreChangesStar(item)) {
      managed.ignoreAllChanges = true;
      ignoreAllRange = item.range;
      diagnostics.push(
        errorDiag(
          "Invalid ignore_changes wildcard",
          'The ["*"] form of ignore_changes wildcard is was deprecated and is now invalid. Use "ignore_changes = all" to ignore changes to all attributes.',
          expr.range,
        ),
      );
      continue;
    }
    const shim = shimTraversalInString(item);
    diagnostics.push(...shim.diagnostics);
    const t = relTraversalForExpr(shim.expr);
    diagnostics.push(...t.diagnostics);
    if (t.traversal.length > 0) managed.ignoreChanges.push(t.traversal);
  }
  if (managed.ignoreAllChanges && managed.ignoreChanges.length > 0) {
    diagnostics.push(errorDiag("Invalid ignore_changes ruleset", 'Cannot mix wildcard string "*" with non-wildcard references.', ignoreAllRange, expr.range));
  }
}

/**
 * Each replace_triggered_by item must refer to exactly one resource (or resource instance),
 * optionally indexed by count.index or each.key. JSON items are strings holding native syntax.
 */
export function decodeReplaceTriggeredBy(expr: AnyExpression): { exprs: AnyExpression[]; diagnostics: Diagnostic[] } {
  const { items, diagnostics } = exprList(expr);
  const exprs: AnyExpression[] = [];
  for (const original of items) {
    let item: AnyExpression = original;
    if (item.kind === "JSONExpr") {
      const n = jsonExprAsNative(item);
      diagnostics.push(...n.diagnostics);
      if (!n.expr) continue;
      item = n.expr;
    }
    exprs.push(item);
    // lang.ReferencesInExpr: a traversal that is not a valid reference (a bare name, say) is
    // reported against the item, and the item is not checked further.
    const refs: Reference[] = [];
    let refErrors = false;
    for (const t of exprVariables(item)) {
      const parsed = parseRef(t);
      for (const d of parsed.diagnostics) diagnostics.push({ ...d, subject: item.range });
      if (hasErrors(parsed.diagnostics)) refErrors = true;
      else if (parsed.result) refs.push(parsed.result);
    }
    if (refErrors) continue;
    let resourceCount = 0;
    for (const ref of refs) {
      const subj = ref.subject;
      if (subj.kind === "Resource" || subj.kind === "ResourceInstance") {
        resourceCount++;
      } else if (subj.kind === "ForEachAttr") {
        if (subj.name !== "key") {
          diagnostics.push(errorDiag("Invalid each reference in replace_triggered_by expression", "Only each.key may be used in replace_triggered_by.", item.range));
        }
      } else if (subj.kind === "CountAttr") {
        if (subj.name !== "index") {
          diagnostics.push(errorDiag("Invalid count reference in replace_triggered_by expression", "Only count.index may be used in replace_triggered_by.", item.range));
        }
      } else {
        diagnostics.push(
          errorDiag(
            "Invalid reference in replace_triggered_by expression",
            "Only resources, count.index, and each.key may be used in replace_triggered_by.",
            item.range,
          ),
        );
      }
    }
    if (resourceCount === 0) {
      diagnostics.push(errorDiag("Invalid replace_triggered_by expression", "Missing resource reference in replace_triggered_by expression.", item.range));
    } else if (resourceCount > 1) {
      diagnostics.push(errorDiag("Invalid replace_triggered_by expression", "Multiple resource references in replace_triggered_by expression.", item.range));
    }
  }
  return { exprs, diagnostics };
}

/** Decodes a `data` block; `nested` is true inside a `check` block (no count, for_each or lifecycle). */
export function decodeDataBlock(block: ContentBlock, override: boolean, nested: boolean): { resource: Resource; diagnostics: Diagnostic[] } {
  return decodeNonManagedBlock("data", block, override, nested);
}

/** Decodes an `ephemeral` block, which follows the rules of a data block. */
export function decodeEphemeralBlock(block: ContentBlock, override: boolean): { resource: Resource; diagnostics: Diagnostic[] } {
  return decodeNonManagedBlock("ephemeral", block, override, false);
}

function decodeNonManagedBlock(mode: "data" | "ephemeral", block: ContentBlock, override: boolean, nested: boolean): { resource: Resource; diagnostics: Diagnostic[] } {
  const r = newResource(mode, block);
  const { content, remain, diagnostics } = configBodyPartialContent(block.body, dataBlockSchema);
  r.config = remain;
  const words =
    mode === "data"
      ? { type: "Invalid data source name", name: "Invalid data resource name", what: "data", lifecycle: "Invalid data resource lifecycle argument", forWhat: "data resources" }
      : {
          type: "Invalid ephemeral resource type name",
          name: "Invalid ephemeral resource name",
          what: "ephemeral",
          lifecycle: "Invalid ephemeral resource lifecycle argument",
          forWhat: "ephemeral resources",
        };
  if (!validIdentifier(r.type)) diagnostics.push(errorDiag(words.type, BAD_IDENTIFIER_DETAIL, block.labelRanges[0]));
  if (!validIdentifier(r.name)) diagnostics.push(errorDiag(words.name, BAD_IDENTIFIER_DETAIL, block.labelRanges[1]));
  decodeCommonMetaArguments(r, content.attributes, nested, diagnostics);

  let seenEscape: ContentBlock | undefined;
  let seenLifecycle: ContentBlock | undefined;
  for (const b of content.blocks) {
    switch (b.type) {
      case "_":
        if (seenEscape) {
          diagnostics.push(escapeBlockDiag("resource-type-specific", words.what, seenEscape, b));
          continue;
        }
        seenEscape = b;
        r.config = unionBody([r.config, b.body]);
        break;
      case "lifecycle": {
        if (nested) {
          diagnostics.push(
            errorDiag("Invalid lifecycle block", 'Nested data blocks do not support "lifecycle" blocks as the lifecycle is managed by the containing block.', b.defRange),
          );
        }
        if (seenLifecycle) {
          diagnostics.push(errorDiag("Duplicate lifecycle block", `This resource already has a lifecycle block at ${formatRange(seenLifecycle.defRange)}.`, b.defRange));
          continue;
        }
        seenLifecycle = b;
        const lc = configBodyContent(b.body, resourceLifecycleBlockSchema);
        diagnostics.push(...lc.diagnostics);
        r.enabled = lc.content.attributes.get("enabled")?.expr;
        diagnostics.push(...enabledCombinationDiagnostics(!!r.count, !!r.forEach, lc.content.attributes.get("enabled"), "resources"));
        // Every other lifecycle argument is for managed resources only.
        for (const [name, attr] of lc.content.attributes) {
          if (name === "enabled") continue;
          diagnostics.push(
            errorDiag(
              words.lifecycle,
              `The lifecycle argument ${JSON.stringify(name)} is defined only for managed resources ("resource" blocks), and is not valid for ${words.forWhat}.`,
              attr.nameRange,
            ),
          );
        }
        decodeLifecycleConditions(r, lc.content.blocks, override, diagnostics);
        break;
      }
      default:
        diagnostics.push(
          errorDiag(
            `Reserved block type name in ${words.what} block`,
            `The block type name ${JSON.stringify(b.type)} is reserved for use by OpenTofu in a future version.`,
            b.typeRange,
          ),
        );
    }
  }
  return { resource: r, diagnostics };
}
