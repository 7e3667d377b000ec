// Override files (`override.tf`, `*_override.tf` and their .tofu/.json variants): each element of
// an override file is merged into the element of the same name from the primary files. What the
// override sets explicitly wins; what it omits stays (OpenTofu's module_merge.go).
import { impliedProviderForUnqualifiedType } from "../addrs/index.js";
import { errorDiag, type Diagnostic } from "../hcl/index.js";
import { convert, formatPathError } from "../values/index.js";
import { overrideBody } from "./body.js";
import type { Local } from "./local.js";
import type { ModuleCall } from "./modulecall.js";
import type { Output } from "./output.js";
import type { Provider } from "./provider.js";
import type { RequiredProvider } from "./required_providers.js";
import type { Resource } from "./resource.js";
import type { Variable } from "./variable.js";
import { traversalRange } from "./body.js";

function dependsOnOverride(dependsOn: Output["dependsOn"]): Diagnostic[] {
  // Overriding depends_on would likely cause confusing behaviour, so it is not allowed.
  const first = dependsOn[0];
  if (!first) return [];
  return [errorDiag("Unsupported override", "The depends_on argument may not be overridden.", traversalRange(first))];
}

export function mergeProvider(p: Provider, op: Provider): Diagnostic[] {
  if (op.version.required.length > 0) p.version = op.version;
  p.config = overrideBody(p.config, op.config);
  return [];
}

export function mergeVariable(v: Variable, ov: Variable): Diagnostic[] {
  const diags: Diagnostic[] = [];
  if (ov.descriptionSet) {
    v.description = ov.description;
    v.descriptionSet = true;
  }
  if (ov.sensitiveSet) {
    v.sensitive = ov.sensitive;
    v.sensitiveSet = true;
  }
  if (ov.default !== undefined) {
    v.default = ov.default;
    v.defaultExpr = ov.defaultExpr;
  }
  if (ov.type !== undefined) {
    v.type = ov.type;
    v.constraintType = ov.constraintType;
    v.typeDefaults = ov.typeDefaults;
    v.typeExpr = ov.typeExpr;
  }
  if (ov.parsingMode !== undefined) v.parsingMode = ov.parsingMode;
  if (ov.nullableSet) {
    v.nullable = ov.nullable;
    v.nullableSet = true;
  }
  if (ov.ephemeralSet) {
    v.ephemeral = ov.ephemeral;
    v.ephemeralSet = true;
  }
  if (ov.const !== undefined) v.const = ov.const;
  if (ov.deprecated !== "") v.deprecated = ov.deprecated;

  // Overriding the type without the default (or the reverse) may leave an invalid default.
  if (v.default !== undefined && v.constraintType) {
    const c = convert(v.default, v.constraintType);
    if (!c.ok) {
      const err = formatPathError(c.error);
      let detail: string;
      if (ov.type !== undefined && ov.default === undefined) {
        detail = `Overriding this variable's type constraint has made its default value invalid: ${err}.`;
      } else if (ov.type === undefined && ov.default !== undefined) {
        detail = `The overridden default value for this variable is not compatible with the variable's type constraint: ${err}.`;
      } else {
        detail = `This variable's default value is not compatible with its type constraint: ${err}.`;
      }
      diags.push(errorDiag("Invalid default value for variable", detail, ov.declRange));
    } else v.default = c.value;
    if (!v.nullable && v.default.kind === "null") {
      diags.push(errorDiag("Invalid default value for variable", "A null default value is not valid when nullable=false.", ov.declRange));
    }
  }
  return diags;
}

export function mergeLocal(l: Local, ol: Local): Diagnostic[] {
  // A local is a single expression, so the override replaces it, range and all.
  l.expr = ol.expr;
  l.declRange = ol.declRange;
  return [];
}

export function mergeOutput(o: Output, oo: Output): Diagnostic[] {
  if (oo.description !== "") o.description = oo.description;
  if (oo.expr) o.expr = oo.expr;
  if (oo.sensitiveSet) {
    o.sensitive = oo.sensitive;
    o.sensitiveSet = true;
  }
  if (oo.ephemeralSet) {
    o.ephemeral = oo.ephemeral;
    o.ephemeralSet = true;
  }
  return dependsOnOverride(oo.dependsOn);
}

export function mergeModuleCall(mc: ModuleCall, omc: ModuleCall): Diagnostic[] {
  if (omc.sourceSet) {
    mc.sourceExpr = omc.sourceExpr;
    mc.sourceAddrRaw = omc.sourceAddrRaw;
    mc.sourceAddr = omc.sourceAddr;
    mc.sourceAddrRange = omc.sourceAddrRange;
    mc.sourceSet = true;
  }
  if (omc.count) mc.count = omc.count;
  if (omc.forEach) mc.forEach = omc.forEach;
  if (omc.version.required.length > 0 || omc.versionExpr) {
    mc.version = omc.version;
    mc.versionExpr = omc.versionExpr;
  }
  mc.hasVersion = mc.hasVersion || omc.hasVersion;
  mc.config = overrideBody(mc.config, omc.config);
  if (omc.providers.length > 0) mc.providers = omc.providers;
  if (omc.enabled) mc.enabled = omc.enabled;
  return dependsOnOverride(omc.dependsOn);
}

export function mergeResource(r: Resource, or: Resource, requiredProviders: ReadonlyMap<string, RequiredProvider>): Diagnostic[] {
  if (r.mode !== or.mode) throw new Error(`can't merge ${or.mode} into ${r.mode}`);
  if (or.count) r.count = or.count;
  if (or.forEach) r.forEach = or.forEach;
  if (or.providerConfigRef) {
    r.providerConfigRef = or.providerConfigRef;
    r.provider = requiredProviders.get(or.providerConfigRef.name)?.type ?? impliedProviderForUnqualifiedType(or.providerConfigRef.name);
  }
  if (or.enabled) r.enabled = or.enabled;
  if (r.managed && or.managed) {
    if (or.managed.connection) r.managed.connection = or.managed.connection;
    if (or.managed.createBeforeDestroySet) {
      r.managed.createBeforeDestroy = or.managed.createBeforeDestroy;
      r.managed.createBeforeDestroySet = true;
    }
    if (or.managed.ignoreChanges.length > 0) r.managed.ignoreChanges = or.managed.ignoreChanges;
    if (or.managed.ignoreAllChanges) r.managed.ignoreAllChanges = true;
    if (or.managed.preventDestroySet) {
      r.managed.preventDestroy = or.managed.preventDestroy;
      r.managed.preventDestroySet = true;
    }
    if (or.managed.destroySet) {
      r.managed.destroy = or.managed.destroy;
      r.managed.destroySet = true;
    }
    if (or.managed.provisioners.length > 0) r.managed.provisioners = or.managed.provisioners;
  }
  r.config = overrideBody(r.config, or.config);
  return dependsOnOverride(or.dependsOn);
}
