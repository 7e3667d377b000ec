// `module` blocks: calls to child modules, with their source, version, repetition, the provider
// configurations passed in, and the remaining arguments (the child's input variables).
import { hostnameForComparison } from "../addrs/index.js";
import {
  errorDiag,
  exprMap,
  formatRange,
  rangeBetween,
  type AnyExpression,
  type BodySchema,
  type ContentAttribute,
  type ContentBlock,
  type Diagnostic,
  type Range,
  type Traverser,
} from "../hcl/index.js";
import { BAD_IDENTIFIER_DETAIL, configBodyContent, configBodyPartialContent, exprVariables, staticValue, unionBody, validIdentifier, type ConfigBody } from "./body.js";
import { enabledCombinationDiagnostics } from "./resource.js";
import { decodeDependsOn } from "./depends_on.js";
import { DEFAULT_MODULE_REGISTRY_HOST, parseModuleSource, parseModuleSourceRegistry, type ModuleSource } from "./module_source.js";
import { decodeProviderConfigRef, providerConfigRefString, type ProviderConfigRef } from "./provider.js";
import { schemaForOverrides } from "./schema.js";
import { decodeVersionConstraint, type VersionConstraint } from "./version_constraint.js";

/** A provider configuration passed to a child module, possibly under another local name. */
export interface PassedProviderConfig {
  inChild: ProviderConfigRef;
  inParent: ProviderConfigRef;
}

export interface ModuleCall {
  name: string;
  sourceExpr: AnyExpression | undefined;
  /** The source string when it is a literal; "" otherwise. */
  sourceAddrRaw: string;
  /** The parsed source; undefined when invalid or when it needs static evaluation (variables). */
  sourceAddr: ModuleSource | undefined;
  sourceAddrRange: Range | undefined;
  sourceSet: boolean;
  /** The child module's input variables (and nothing else). */
  config: ConfigBody;
  version: VersionConstraint;
  versionExpr: AnyExpression | undefined;
  /** The whole `version` argument, for static evaluation (its range is the constraint's). */
  versionAttr: ContentAttribute | undefined;
  hasVersion: boolean;
  count: AnyExpression | undefined;
  forEach: AnyExpression | undefined;
  providers: PassedProviderConfig[];
  dependsOn: Traverser[][];
  /** `lifecycle { enabled = ... }`: whether the single instance exists (evaluated later). */
  enabled: AnyExpression | undefined;
  declRange: Range;
}

export const moduleBlockSchema: BodySchema = {
  attributes: [
    { name: "source", required: true },
    { name: "version" },
    { name: "count" },
    { name: "for_each" },
    { name: "depends_on" },
    { name: "providers" },
  ],
  blocks: [
    { type: "_" }, // meta-argument escaping block
    { type: "lifecycle" },
    // Reserved for future use.
    { type: "locals" },
    { type: "provider", labelNames: ["type"] },
  ],
};

const moduleLifecycleBlockSchema: BodySchema = { attributes: [{ name: "enabled" }] };

export function decodeModuleBlock(block: ContentBlock, override: boolean): { call: ModuleCall; diagnostics: Diagnostic[] } {
  const { content, remain, diagnostics } = configBodyPartialContent(block.body, override ? schemaForOverrides(moduleBlockSchema) : moduleBlockSchema);
  const mc: ModuleCall = {
    name: block.labels[0] ?? "",
    sourceExpr: undefined,
    sourceAddrRaw: "",
    sourceAddr: undefined,
    sourceAddrRange: undefined,
    sourceSet: false,
    config: remain,
    version: { required: [], raw: "", declRange: undefined },
    versionExpr: undefined,
    versionAttr: undefined,
    hasVersion: false,
    count: undefined,
    forEach: undefined,
    providers: [],
    dependsOn: [],
    enabled: undefined,
    declRange: block.defRange,
  };
  if (!validIdentifier(mc.name)) diagnostics.push(errorDiag("Invalid module instance name", BAD_IDENTIFIER_DETAIL, block.labelRanges[0]));

  // A `source` or `version` that needs variables, locals or functions is decoded by static
  // evaluation later (static/modulecall.ts); so is the source when the version is, since a
  // version makes the source a registry address.
  let versionPending = false;
  const version = content.attributes.get("version");
  if (version) {
    mc.hasVersion = true;
    mc.versionExpr = version.expr;
    mc.versionAttr = version;
    if (isLiteral(version.expr)) {
      const r = decodeVersionConstraint(version);
      diagnostics.push(...r.diagnostics);
      mc.version = r.constraint;
    } else versionPending = true;
  }

  const source = content.attributes.get("source");
  if (source) {
    mc.sourceSet = true;
    mc.sourceExpr = source.expr;
    mc.sourceAddrRange = source.expr.range;
    if (!versionPending && isLiteral(source.expr)) diagnostics.push(...decodeModuleSource(mc, source.expr));
  }

  const count = content.attributes.get("count");
  if (count) mc.count = count.expr;
  const forEach = content.attributes.get("for_each");
  if (forEach) {
    if (mc.count) {
      diagnostics.push(
        errorDiag(
          'Invalid combination of "count" and "for_each"',
          'The "count" and "for_each" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.',
          forEach.nameRange,
        ),
      );
    }
    mc.forEach = forEach.expr;
  }
  const deps = content.attributes.get("depends_on");
  if (deps) {
    const r = decodeDependsOn(deps);
    diagnostics.push(...r.diagnostics);
    mc.dependsOn.push(...r.dependsOn);
  }
  const providers = content.attributes.get("providers");
  if (providers) {
    const r = decodePassedProviderConfigs(providers.expr);
    diagnostics.push(...r.diagnostics);
    mc.providers.push(...r.providers);
  }

  let seenEscape: ContentBlock | undefined;
  let seenLifecycle: ContentBlock | undefined;
  let enabledAttr: ContentAttribute | undefined;
  for (const b of content.blocks) {
    if (b.type === "lifecycle") {
      if (seenLifecycle) {
        diagnostics.push(errorDiag("Duplicate lifecycle block", `This module call already has a lifecycle block at ${formatRange(seenLifecycle.defRange)}.`, b.defRange));
        continue;
      }
      seenLifecycle = b;
      const lc = configBodyContent(b.body, moduleLifecycleBlockSchema);
      diagnostics.push(...lc.diagnostics);
      mc.enabled = lc.content.attributes.get("enabled")?.expr;
      enabledAttr = lc.content.attributes.get("enabled");
      continue;
    }
    if (b.type === "_") {
      if (seenEscape) {
        diagnostics.push(
          errorDiag(
            "Duplicate escaping block",
            `The special block type "_" can be used to force particular arguments to be interpreted as module input variables rather than as meta-arguments, but each module block can have only one such block. The first escaping block was at ${formatRange(seenEscape.defRange)}.`,
            b.defRange,
          ),
        );
        continue;
      }
      seenEscape = b;
      mc.config = unionBody([mc.config, b.body]);
      continue;
    }
    diagnostics.push(
      errorDiag("Reserved block type name in module block", `The block type name ${JSON.stringify(b.type)} is reserved for use by OpenTofu in a future version.`, b.typeRange),
    );
  }
  diagnostics.push(...enabledCombinationDiagnostics(!!mc.count, !!mc.forEach, enabledAttr, "module instances"));
  return { call: mc, diagnostics };
}

/** Whether an expression can be evaluated with no variables and no functions. */
function isLiteral(expr: AnyExpression): boolean {
  return exprVariables(expr).length === 0 && !staticValue(expr).diagnostics.some((d) => d.severity === "error");
}

/** Decodes a literal `source` string into mc.sourceAddr (static evaluation uses this too). */
export function decodeModuleSource(mc: ModuleCall, expr: AnyExpression): Diagnostic[] {
  const v = staticValue(expr);
  if (v.diagnostics.some((d) => d.severity === "error")) return v.diagnostics;
  if (v.value.kind !== "string") {
    return [errorDiag("Invalid module source address", "The module source address must be a string.", expr.range)];
  }
  return setModuleSource(mc, v.value.value, expr.range);
}

/** Parses a source string into the call, with OpenTofu's errors for invalid addresses. */
export function setModuleSource(mc: ModuleCall, raw: string, range: Range): Diagnostic[] {
  mc.sourceAddrRaw = raw;
  let r = mc.hasVersion ? parseModuleSourceRegistry(raw) : parseModuleSource(raw);
  // A registry host must be a valid hostname (svchost.ForComparison), e.g. not "---.com".
  if (r.ok && mc.hasVersion && r.source.kind === "registry" && r.source.host !== DEFAULT_MODULE_REGISTRY_HOST) {
    const h = hostnameForComparison(r.source.host);
    if (h.error !== undefined) r = { ok: false, error: `invalid module registry hostname ${JSON.stringify(r.source.host)}: ${h.error}` };
  }
  if (r.ok) {
    mc.sourceAddr = r.source;
    return [];
  }
  mc.sourceAddr = undefined;
  if (r.maybeRelativePath) {
    return [
      errorDiag(
        "Invalid module source address",
        `OpenTofu failed to determine your intended installation method for remote module package ${JSON.stringify(raw)}.\n\nIf you intended this as a path relative to the current module, use "./${raw}" instead. The "./" prefix indicates that the address is a relative filesystem path.`,
        range,
      ),
    ];
  }
  if (mc.hasVersion) {
    return [
      errorDiag(
        "Invalid registry module source address",
        `Failed to parse module registry address: ${r.error}.\n\nOpenTofu assumed that you intended a module registry source address because you also set the argument "version", which applies only to registry modules.`,
        range,
      ),
    ];
  }
  return [errorDiag("Invalid module source address", `Failed to parse module source address: ${r.error}.`, range)];
}

function decodePassedProviderConfigs(expr: AnyExpression): { providers: PassedProviderConfig[]; diagnostics: Diagnostic[] } {
  const providers: PassedProviderConfig[] = [];
  const seen = new Map<string, Range>();
  const { items, diagnostics } = exprMap(expr);
  for (const pair of items) {
    const key = decodeProviderConfigRef(pair.key, "providers");
    diagnostics.push(...key.diagnostics);
    const value = decodeProviderConfigRef(pair.value, "providers");
    diagnostics.push(...value.diagnostics);
    if (!key.ref || !value.ref || [...key.diagnostics, ...value.diagnostics].some((d) => d.severity === "error")) continue;
    const matchKey = providerConfigRefString(key.ref);
    const prev = seen.get(matchKey);
    if (prev) {
      diagnostics.push(
        errorDiag(
          "Duplicate provider address",
          `A provider configuration was already passed to ${matchKey} at ${formatRange(prev)}. Each child provider configuration can be assigned only once.`,
          pair.value.range,
        ),
      );
      continue;
    }
    seen.set(matchKey, rangeBetween(pair.key.range, pair.value.range));
    providers.push({ inChild: key.ref, inParent: value.ref });
  }
  return { providers, diagnostics };
}
