// `required_providers` inside `terraform`: each entry maps a local name to a provider source
// address, a version constraint and the configuration aliases a module expects to be passed.
import {
  checkProviderLocalName,
  impliedProviderForUnqualifiedType,
  parseProviderPart,
  parseProviderSourceString,
  type Provider as ProviderAddr,
} from "../addrs/index.js";
import { absTraversalForExpr, errorDiag, exprList, exprMap, type ContentBlock, type Diagnostic, type Range } from "../hcl/index.js";
import { configBodyJustAttributes, staticValue } from "./body.js";
import { decodeVersionConstraint, parseConstraint, type VersionConstraint } from "./version_constraint.js";
import { parseProviderConfigCompact, type LocalProviderConfig } from "./provider.js";

export interface RequiredProvider {
  name: string;
  /** The source as written ("" when implied from the name). */
  source: string;
  type: ProviderAddr | undefined;
  requirement: VersionConstraint;
  aliases: LocalProviderConfig[];
  declRange: Range;
}

export interface RequiredProviders {
  requiredProviders: Map<string, RequiredProvider>;
  declRange: Range | undefined;
}

export function decodeRequiredProvidersBlock(block: ContentBlock): { requiredProviders: RequiredProviders; diagnostics: Diagnostic[] } {
  const ret: RequiredProviders = { requiredProviders: new Map(), declRange: block.defRange };
  const { attributes, diagnostics } = configBodyJustAttributes(block.body);
  // Even with errors the (empty) result lets later validation report everything it can.
  if (diagnostics.some((d) => d.severity === "error")) return { requiredProviders: ret, diagnostics };

  for (const [name, attr] of attributes) {
    const rp: RequiredProvider = {
      name,
      source: "",
      type: undefined,
      requirement: { required: [], raw: "", declRange: undefined },
      aliases: [],
      declRange: attr.expr.range,
    };
    // The legacy form is a bare version string: `aws = "~> 5.0"`.
    const literal = staticValue(attr.expr);
    const lv = literal.value;
    if (!literal.diagnostics.some((d) => d.severity === "error") && (lv.kind === "string" || lv.kind === "number" || lv.kind === "bool")) {
      const vc = decodeVersionConstraint(attr);
      diagnostics.push(...vc.diagnostics);
      const part = parseProviderPart(name);
      if (part.error !== undefined) {
        diagnostics.push(errorDiag("Invalid provider name", part.error, attr.expr.range));
        continue;
      }
      rp.requirement = vc.constraint;
      rp.type = impliedProviderForUnqualifiedType(part.part);
      ret.requiredProviders.set(name, rp);
      continue;
    }

    const nameDiags = checkProviderLocalName(name, attr.expr.range);
    if (nameDiags.some((d) => d.severity === "error")) {
      diagnostics.push(...nameDiags);
      continue;
    }
    const kvs = exprMap(attr.expr);
    if (kvs.diagnostics.some((d) => d.severity === "error")) {
      diagnostics.push(errorDiag("Invalid required_providers object", "required_providers entries must be strings or objects.", attr.expr.range));
      continue;
    }
    for (const kv of kvs.items) {
      const key = staticValue(kv.key);
      if (key.diagnostics.some((d) => d.severity === "error")) {
        diagnostics.push(...key.diagnostics);
        continue;
      }
      if (key.value.kind !== "string") {
        diagnostics.push(errorDiag("Invalid Attribute", "Invalid attribute value for provider requirement", kv.key.range));
        continue;
      }
      const keyName = key.value.value;
      if (keyName === "version") {
        const v = staticValue(kv.value);
        if (v.diagnostics.some((d) => d.severity === "error") || v.value.kind !== "string") {
          diagnostics.push(errorDiag("Invalid version constraint", "Version must be specified as a string.", kv.value.range));
          continue;
        }
        const terms = parseConstraint(v.value.value);
        if (!terms) {
          diagnostics.push(errorDiag("Invalid version constraint", "This string does not use correct version constraint syntax.", kv.value.range));
          continue;
        }
        rp.requirement = { required: terms, raw: v.value.value, declRange: attr.range };
      } else if (keyName === "source") {
        const v = staticValue(kv.value);
        if (v.diagnostics.some((d) => d.severity === "error") || v.value.kind !== "string") {
          diagnostics.push(errorDiag("Invalid source", "Source must be specified as a string.", kv.value.range));
          continue;
        }
        const fqn = parseProviderSourceString(v.value.value);
        if (!fqn.result || fqn.diagnostics.some((d) => d.severity === "error")) {
          // The address parser has no source location; the diagnostics get the value's range.
          for (const d of fqn.diagnostics) diagnostics.push(d.subject ? d : { ...d, subject: kv.value.range });
          continue;
        }
        rp.source = v.value.value;
        rp.type = fqn.result;
      } else if (keyName === "configuration_aliases") {
        const list = exprList(kv.value);
        if (list.diagnostics.some((d) => d.severity === "error")) {
          diagnostics.push(...list.diagnostics);
          continue;
        }
        for (const item of list.items) {
          const t = absTraversalForExpr(item);
          if (t.diagnostics.some((d) => d.severity === "error")) {
            diagnostics.push(...t.diagnostics);
            continue;
          }
          const a = parseProviderConfigCompact(t.traversal);
          if (a.diagnostics.some((d) => d.severity === "error")) {
            diagnostics.push(
              errorDiag(
                "Invalid configuration_aliases value",
                "Configuration aliases can only contain references to local provider configuration names in the format of provider.alias",
                kv.value.range,
              ),
            );
            continue;
          }
          if (a.addr.localName !== name) {
            diagnostics.push(
              errorDiag(
                "Invalid configuration_aliases value",
                `Configuration aliases must be prefixed with the provider name. Expected ${JSON.stringify(name)}, but found ${JSON.stringify(a.addr.localName)}.`,
                kv.value.range,
              ),
            );
            continue;
          }
          rp.aliases.push(a.addr);
        }
      } else {
        diagnostics.push(
          errorDiag(
            "Invalid required_providers object",
            'required_providers objects can only contain "version", "source" and "configuration_aliases" attributes. To configure a provider, use a "provider" block.',
            kv.key.range,
          ),
        );
        break;
      }
    }
    // Like OpenTofu, an entry is kept only when its block decoded without errors so far.
    if (diagnostics.some((d) => d.severity === "error")) continue;
    if (!rp.type) {
      const part = parseProviderPart(rp.name);
      if (part.error !== undefined) diagnostics.push(errorDiag("Invalid provider name", part.error, attr.expr.range));
      else rp.type = impliedProviderForUnqualifiedType(part.part);
    }
    ret.requiredProviders.set(rp.name, rp);
  }
  return { requiredProviders: ret, diagnostics };
}
