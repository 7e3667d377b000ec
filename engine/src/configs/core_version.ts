// `required_version` (OpenTofu's Config.CheckCoreVersionRequirements): every module in the tree
// must accept the OpenTofu version this engine is compatible with. A configuration written for
// another version may fail in any number of other ways, so callers report these errors alone.
import { errorDiag, type Diagnostic } from "../hcl/index.js";
import { modulePathString, type Config } from "./config.js";
import { OPENTOFU_COMPAT_VERSION } from "./file.js";
import type { Module } from "./module.js";
import { moduleSourceString } from "./module_source.js";
import { parseVersion, versionMeets, versionString } from "./version_constraint.js";

const COMPAT = parseVersion(OPENTOFU_COMPAT_VERSION);

const TO_PROCEED =
  "To proceed, either choose another supported OpenTofu version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior.";

/** The version errors of one module; `caller` names it when it is not the root module. */
export function moduleCoreVersionDiagnostics(module: Module, caller?: { path: readonly string[]; source: string }): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  if (!COMPAT) return diagnostics;
  for (const constraint of module.coreVersionConstraints) {
    const prerelease = constraint.required.filter((t) => t.version.prerelease !== "");
    if (prerelease.length > 0) {
      for (const t of prerelease) {
        diagnostics.push(
          errorDiag(
            "Invalid required_version constraint",
            `Prerelease version constraints are not supported: ${t.op === "=" ? "" : `${t.op} `}${versionString(t.version)}. Remove the prerelease information from the constraint. Prerelease versions of OpenTofu will match constraints using their version core only.`,
            constraint.declRange,
          ),
        );
      }
      continue;
    }
    if (versionMeets(COMPAT, constraint.required)) continue;
    const detail = caller
      ? `Module ${modulePathString(caller.path)} (from ${caller.source}) does not support OpenTofu version ${OPENTOFU_COMPAT_VERSION}. ${TO_PROCEED}`
      : `This configuration does not support OpenTofu version ${OPENTOFU_COMPAT_VERSION}. ${TO_PROCEED}`;
    diagnostics.push(errorDiag("Unsupported OpenTofu Core version", detail, constraint.declRange));
  }
  return diagnostics;
}

/** The version errors of every module in the tree, the root first, then each call in order. */
export function configCoreVersionDiagnostics(config: Config): Diagnostic[] {
  const caller = config.path.length === 0 ? undefined : { path: config.path, source: config.sourceAddr ? moduleSourceString(config.sourceAddr) : "" };
  const diagnostics = moduleCoreVersionDiagnostics(config.module, caller);
  for (const child of config.children.values()) diagnostics.push(...configCoreVersionDiagnostics(child));
  return diagnostics;
}
