// `provider` blocks (provider configurations, possibly with an alias and `for_each`) and the
// references to them from `provider` and `providers` arguments (`name`, `name.alias`,
// `name.alias[key]`, the key kept as an expression to evaluate per instance later).
import { checkProviderLocalName, type Provider as ProviderAddr } from "../addrs/index.js";
import {
  absTraversalForExpr,
  errorDiag,
  formatRange,
  type AnyExpression,
  type BodySchema,
  type ContentBlock,
  type Diagnostic,
  type Range,
  type Traverser,
} from "../hcl/index.js";
import { warningDiag } from "./diags.js";
import {
  BAD_IDENTIFIER_DETAIL,
  configBodyPartialContent,
  decodeString,
  exprIsNativeQuotedString,
  jsonExprAsNative,
  shimTraversalInString,
  traversalRange,
  unionBody,
  validIdentifier,
  type ConfigBody,
} from "./body.js";
import type { Value } from "../values/index.js";
import { decodeVersionConstraint, type VersionConstraint } from "./version_constraint.js";

export interface Provider {
  /** The provider's local name (the block label). */
  name: string;
  nameRange: Range;
  /** "" when the configuration has no alias. */
  alias: string;
  aliasRange: Range | undefined;
  /** Deprecated in-block version constraint. */
  version: VersionConstraint;
  /** The provider-specific arguments, decoded later with the provider's schema. */
  config: ConfigBody;
  /** Makes one provider instance per element; only allowed with an alias. Evaluated statically. */
  forEach: AnyExpression | undefined;
  /**
   * With `for_each`, the instances by key (in key order) with their `each.key`/`each.value`,
   * once static evaluation has run; undefined otherwise (a single instance with no key).
   */
  instances: Map<string, ProviderInstanceRepetition> | undefined;
  declRange: Range;
  /** The provider this configuration is for, once the module's required_providers are known. */
  providerType: ProviderAddr | undefined;
  /**
   * Replaced by a test's `mock_provider` (OpenTofu's IsMocked): `config` is the mock's body, so
   * validation skips it and no instance of it is configured.
   */
  isMocked?: boolean;
}

/** What `each.key` and `each.value` are in one instance of a provider with `for_each`. */
export interface ProviderInstanceRepetition {
  eachKey: Value;
  eachValue: Value;
}

/** A module-unique key: `name` or `name.alias`. */
export function providerKey(name: string, alias: string): string {
  return alias !== "" ? `${name}.${alias}` : name;
}

const providerBlockSchema: BodySchema = {
  attributes: [
    { name: "alias" },
    { name: "version" },
    { name: "for_each" },
    // Reserved for future use.
    { name: "count" },
    { name: "depends_on" },
    { name: "source" },
  ],
  blocks: [
    { type: "_" }, // meta-argument escaping block
    // Reserved for future use.
    { type: "lifecycle" },
    { type: "locals" },
  ],
};

export function decodeProviderBlock(block: ContentBlock): { provider: Provider | undefined; diagnostics: Diagnostic[] } {
  const { content, remain, diagnostics } = configBodyPartialContent(block.body, providerBlockSchema);
  const name = block.labels[0] ?? "";
  const nameDiags = checkProviderLocalName(name, block.defRange);
  diagnostics.push(...nameDiags);
  // An invalid name must not produce a result: later steps would use it as a provider type.
  if (nameDiags.some((d) => d.severity === "error")) return { provider: undefined, diagnostics };

  const p: Provider = {
    name,
    nameRange: block.labelRanges[0] ?? block.defRange,
    alias: "",
    aliasRange: undefined,
    version: { required: [], raw: "", declRange: undefined },
    config: remain,
    forEach: undefined,
    instances: undefined,
    declRange: block.defRange,
    providerType: undefined,
  };

  const alias = content.attributes.get("alias");
  if (alias) {
    const r = decodeString(alias.expr);
    diagnostics.push(...r.diagnostics);
    p.alias = r.value ?? "";
    p.aliasRange = alias.expr.range;
    if (!validIdentifier(p.alias)) {
      diagnostics.push(errorDiag("Invalid provider configuration alias", `An alias must be a valid name. ${BAD_IDENTIFIER_DETAIL}`, alias.expr.range));
    }
  }

  const version = content.attributes.get("version");
  if (version) {
    diagnostics.push(
      warningDiag(
        "Version constraints inside provider configuration blocks are deprecated",
        "OpenTofu 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of OpenTofu. To silence this warning, move the provider version constraint into the required_providers block.",
        version.expr.range,
      ),
    );
    const r = decodeVersionConstraint(version);
    diagnostics.push(...r.diagnostics);
    p.version = r.constraint;
  }

  const forEach = content.attributes.get("for_each");
  if (forEach) p.forEach = forEach.expr;
  if (p.alias === "" && p.forEach) {
    diagnostics.push(
      errorDiag('Alias required when using "for_each"', "The for_each argument is allowed only for provider configurations with an alias.", p.forEach.range),
    );
  }

  for (const reserved of ["count", "depends_on", "source"]) {
    const attr = content.attributes.get(reserved);
    if (attr) {
      diagnostics.push(
        errorDiag(
          "Reserved argument name in provider block",
          `The provider argument name ${JSON.stringify(reserved)} is reserved for use by OpenTofu in a future version.`,
          attr.nameRange,
        ),
      );
    }
  }

  let seenEscape: ContentBlock | undefined;
  for (const b of content.blocks) {
    if (b.type === "_") {
      if (seenEscape) {
        diagnostics.push(
          errorDiag(
            "Duplicate escaping block",
            `The special block type "_" can be used to force particular arguments to be interpreted as provider-specific rather than as meta-arguments, but each provider block can have only one such block. The first escaping block was at ${formatRange(seenEscape.defRange)}.`,
            b.defRange,
          ),
        );
        continue;
      }
      seenEscape = b;
      p.config = unionBody([p.config, b.body]);
      continue;
    }
    diagnostics.push(
      errorDiag(
        "Reserved block type name in provider block",
        `The block type name ${JSON.stringify(b.type)} is reserved for use by OpenTofu in a future version.`,
        b.typeRange,
      ),
    );
  }
  return { provider: p, diagnostics };
}

/** A reference to a provider configuration from a `provider` or `providers` argument. */
export interface ProviderConfigRef {
  name: string;
  nameRange: Range;
  /** "" when no alias was given. */
  alias: string;
  aliasRange: Range | undefined;
  /** The instance key (`name.alias[key]`), evaluated per resource or module instance later. */
  keyExpression: AnyExpression | undefined;
  /** The whole reference. */
  range: Range;
  /** The provider the local name stands for, once the module's required_providers are known. */
  providerType: ProviderAddr | undefined;
}

/** `name` or `name.alias`, as OpenTofu prints a ProviderConfigRef. */
export function providerConfigRefString(r: ProviderConfigRef): string {
  return providerKey(r.name, r.alias);
}

function invalidProviderReference(argName: string, subject: Range): Diagnostic {
  return errorDiag(
    "Invalid provider configuration reference",
    `The ${argName} argument requires a provider type name, optionally followed by a period and then a configuration alias.`,
    subject,
  );
}

/** Decodes `name`, `name.alias`, `name.alias["key"]` or `name.alias[expression]`. */
export function decodeProviderConfigRef(e: AnyExpression, argName: string): { ref: ProviderConfigRef | undefined; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  let expr: AnyExpression = e;
  if (expr.kind === "JSONExpr") {
    const n = jsonExprAsNative(expr);
    if (!n.expr) return { ref: undefined, diagnostics: n.diagnostics };
    diagnostics.push(...n.diagnostics);
    expr = n.expr;
  }
  if (expr.kind === "ObjectKey") expr = expr.wrapped;
  // name.alias[expression]: the key is kept; no constant key may follow the alias then.
  let keyExpr: AnyExpression | undefined;
  let maxLength = 3;
  if (expr.kind === "Index") {
    keyExpr = expr.key;
    expr = expr.collection;
    maxLength = 2;
  }
  const shim = shimTraversalInString(expr);
  diagnostics.push(...shim.diagnostics);
  expr = shim.expr;
  // absTraversalForExpr's errors are generic; ours below say more.
  const { traversal } = absTraversalForExpr(expr);
  if (traversal.length === 0 || traversal.length > maxLength) {
    if (exprIsNativeQuotedString(expr)) {
      diagnostics.push(errorDiag("Invalid provider configuration reference", "A provider configuration reference must not be given in quotes.", expr.range));
      return { ref: undefined, diagnostics };
    }
    diagnostics.push(invalidProviderReference(argName, e.range));
    return { ref: undefined, diagnostics };
  }
  const root = traversal[0] as Traverser;
  const name = root.kind === "Index" ? "" : root.name;
  const nameDiags = checkProviderLocalName(name, root.range);
  diagnostics.push(...nameDiags);
  if (nameDiags.some((d) => d.severity === "error")) return { ref: undefined, diagnostics };

  const whole = traversalRange(traversal) ?? expr.range;
  const ref: ProviderConfigRef = {
    name,
    nameRange: root.range,
    alias: "",
    aliasRange: undefined,
    keyExpression: keyExpr,
    range: e.range,
    providerType: undefined,
  };
  const aliasStep = traversal[1];
  if (aliasStep) {
    if (aliasStep.kind !== "Attr") {
      diagnostics.push(
        errorDiag(
          "Invalid provider configuration reference",
          "Provider name must either stand alone or be followed by a period and then a configuration alias.",
          aliasStep.range,
        ),
      );
      return { ref, diagnostics };
    }
    ref.alias = aliasStep.name;
    ref.aliasRange = aliasStep.range;
  }
  const keyStep = traversal[2];
  if (keyStep) {
    if (keyStep.kind !== "Index") {
      diagnostics.push(
        errorDiag(
          "Invalid provider configuration reference",
          "Provider name must either stand alone or be followed by a period and then a configuration alias.",
          keyStep.range,
        ),
      );
      return { ref, diagnostics };
    }
    ref.keyExpression = { kind: "Literal", value: keyStep.key, range: whole };
  }
  if (ref.alias === "" && ref.keyExpression) {
    diagnostics.push(
      errorDiag(
        "Invalid provider configuration reference",
        "Provider assignment requires an alias when specifying an instance key, in the form of provider.name[instance_key]",
        whole,
      ),
    );
  }
  return { ref, diagnostics };
}

/** A local provider configuration address in compact form (`aws`, `aws.foo`). */
export interface LocalProviderConfig {
  localName: string;
  alias: string;
}

/** OpenTofu's ParseProviderConfigCompact, for `configuration_aliases`. */
export function parseProviderConfigCompact(traversal: readonly Traverser[]): { addr: LocalProviderConfig; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const root = traversal[0];
  const addr: LocalProviderConfig = { localName: root && root.kind !== "Index" ? root.name : "", alias: "" };
  const aliasStep = traversal[1];
  if (!aliasStep) return { addr, diagnostics };
  if (aliasStep.kind === "Attr") {
    addr.alias = aliasStep.name;
    return { addr, diagnostics };
  }
  diagnostics.push(
    errorDiag(
      "Invalid provider configuration address",
      "The provider type name must either stand alone or be followed by an alias name separated with a dot.",
      aliasStep.range,
    ),
  );
  if (traversal.length > 2) {
    const rest = traversalRange(traversal.slice(2));
    diagnostics.push(errorDiag("Invalid provider configuration address", "Extraneous extra operators after provider configuration address.", rest));
  }
  return { addr, diagnostics };
}
