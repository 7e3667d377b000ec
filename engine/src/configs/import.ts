// `import` blocks: bring existing objects under management. `to` may index with dynamic keys
// (`aws_s3_bucket.b[each.key]`), so it is kept as an expression; its static part (module path and
// resource) is read at load time.
import { errorDiag, rangeBetween, type AnyExpression, type BodySchema, type ContentBlock, type Diagnostic, type Expression, type Range, type Traverser } from "../hcl/index.js";
import type { Provider as ProviderAddr } from "../addrs/index.js";
import { configBodyContent, jsonExprAsNative } from "./body.js";
import { decodeProviderConfigRef, type ProviderConfigRef } from "./provider.js";
import { parseStaticAddr, type StaticAddr } from "./refaddr.js";

export interface Import {
  id: AnyExpression | undefined;
  /** The alternative to `id`: the object's resource identity. */
  identity: AnyExpression | undefined;
  /** The target address as written (JSON strings already read as native syntax). */
  to: AnyExpression | undefined;
  /** The module and resource `to` names, instance keys aside. */
  staticTo: StaticAddr | undefined;
  /** Whether `to` is fully static (constant keys only), so duplicates can be detected at load. */
  toIsStatic: boolean;
  forEach: AnyExpression | undefined;
  providerConfigRef: ProviderConfigRef | undefined;
  provider: ProviderAddr | undefined;
  declRange: Range;
  providerDeclRange: Range | undefined;
}

const importBlockSchema: BodySchema = {
  attributes: [{ name: "provider" }, { name: "id" }, { name: "identity" }, { name: "to", required: true }, { name: "for_each" }],
};

const INVALID_IMPORT_ADDRESS =
  "Import address must be a reference to a resource's address, and only allows for indexing with dynamic keys. For example: module.my_module[expression1].aws_s3_bucket.my_buckets[expression2] for resources inside of modules, or simply aws_s3_bucket.my_bucket for a resource in the root module";

/** The traversal of an import address, with dynamic index expressions skipped. */
function importToTraversal(e: Expression, diags: Diagnostic[], dynamic: { found: boolean }): Traverser[] {
  switch (e.kind) {
    case "Index":
      dynamic.found = true;
      return importToTraversal(e.collection, diags, dynamic);
    case "RelativeTraversal":
      return [...importToTraversal(e.source, diags, dynamic), ...e.traversal];
    case "ScopeTraversal":
      return [...e.traversal];
    default:
      diags.push(errorDiag("Invalid import address expression", INVALID_IMPORT_ADDRESS, e.range));
      return [];
  }
}

export function decodeImportBlock(block: ContentBlock): { imp: Import; diagnostics: Diagnostic[] } {
  const imp: Import = {
    id: undefined,
    identity: undefined,
    to: undefined,
    staticTo: undefined,
    toIsStatic: false,
    forEach: undefined,
    providerConfigRef: undefined,
    provider: undefined,
    declRange: block.defRange,
    providerDeclRange: undefined,
  };
  const { content, diagnostics } = configBodyContent(block.body, importBlockSchema);
  const id = content.attributes.get("id");
  const identity = content.attributes.get("identity");
  if (id) imp.id = id.expr;
  if (identity) imp.identity = identity.expr;

  const to = content.attributes.get("to");
  if (to) {
    let toExpr: Expression | undefined;
    if (to.expr.kind === "JSONExpr") {
      const n = jsonExprAsNative(to.expr);
      diagnostics.push(...n.diagnostics);
      if (!n.expr) return { imp, diagnostics };
      toExpr = n.expr;
    } else toExpr = to.expr;
    imp.to = toExpr;
    const addrDiags: Diagnostic[] = [];
    const dynamic = { found: false };
    const traversal = importToTraversal(toExpr, addrDiags, dynamic);
    if (addrDiags.length === 0) {
      const a = parseStaticAddr(traversal);
      addrDiags.push(...a.diagnostics);
      if (a.addr && !a.addr.resource) {
        addrDiags.push(errorDiag("Invalid address", "Resource specification must include a resource type and name.", toExpr.range));
      } else imp.staticTo = a.addr;
    }
    diagnostics.push(...addrDiags);
    // Without a valid address the provider cannot be checked either.
    if (addrDiags.some((d) => d.severity === "error")) return { imp, diagnostics };
    imp.toIsStatic = !dynamic.found;
  }

  const provider = content.attributes.get("provider");
  if (provider) {
    if (imp.staticTo && imp.staticTo.module.length > 0) {
      diagnostics.push(
        errorDiag(
          "Invalid import provider argument",
          "The provider argument can only be specified in import blocks that will generate configuration.\n\nUse the providers argument within the module block to configure providers for all resources within a module, including imported resources.",
          provider.range,
        ),
      );
    }
    const r = decodeProviderConfigRef(provider.expr, "provider");
    diagnostics.push(...r.diagnostics);
    imp.providerConfigRef = r.ref;
    imp.providerDeclRange = provider.range;
  }
  const forEach = content.attributes.get("for_each");
  if (forEach) imp.forEach = forEach.expr;

  if (!id && !identity) {
    diagnostics.push(
      errorDiag(
        "Missing required import argument",
        "One of 'id' or 'identity' must be specified in an import block to identify the resource instance to import.",
        block.defRange,
      ),
    );
  }
  if (id && identity) {
    const [a, b] = id.range.start.byte <= identity.range.start.byte ? [id.range, identity.range] : [identity.range, id.range];
    diagnostics.push(
      errorDiag(
        "Conflicting import arguments",
        "Only one of 'id' or 'identity' can be specified in an import block. 'id' identifies the resource instance by its ID, while 'identity' identifies the resource instance by its Resource Identity. Choose one method to identify the resource instance to import.",
        rangeBetween(a, b),
      ),
    );
  }
  return { imp, diagnostics };
}
