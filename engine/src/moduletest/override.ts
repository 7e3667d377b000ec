// `override_module`, `override_resource` and `override_data` of a run and its file
// (OpenTofu's Config.transformOverriddenModulesForTest / transformOverriddenResourcesForTest):
// a run's block wins over the file's for the same address (with a warning). A module override
// turns the called module, in this run's fresh load of the configuration, into one with the same
// variables and only the given outputs (others null), so nothing inside it is planned. Resource
// overrides are resolved to the resources they name; the run's resource hook (factory.ts) then
// answers every instance of those resources in process.
import type { ConfigResource } from "../addrs/index.js";
import { descendent, type Config } from "../configs/index.js";
import { errorDiag, hasErrors, parseExpression, type Diagnostic } from "../hcl/index.js";
import { formatValue, type Value } from "../values/index.js";
import type { OverrideModule, OverrideResource } from "./file.js";

/** HCL source for a value (a literal expression the evaluator gives back as the same value). */
export function valueLiteral(v: Value): string {
  switch (v.kind) {
    case "null":
      return "null";
    case "unknown":
      return "null";
    case "string":
      return JSON.stringify(v.value).replace(/\$\{/g, "$${").replace(/%\{/g, "%%{");
    case "number":
    case "bool":
      return formatValue(v);
    case "list":
    case "set":
    case "tuple":
      return `[${v.elements.map(valueLiteral).join(", ")}]`;
    case "map":
    case "object":
      return `{${[...v.attrs].map(([k, e]) => `${JSON.stringify(k)} = ${valueLiteral(e)}`).join(", ")}}`;
  }
}

function blockName(o: OverrideResource): string {
  return o.mode === "data" ? "override_data" : "override_resource";
}

/**
 * The run's overrides, then the file's for addresses the run does not override, each skipped one
 * with a warning (mergeOverriddenResources / mergeOverriddenModules).
 */
function mergeOverrides<T extends { readonly target: { toString(): string }; readonly targetRange: Diagnostic["subject"] }>(
  run: readonly T[],
  file: readonly T[],
  warning: (o: T, addr: string) => Pick<Diagnostic, "summary" | "detail">,
): { overrides: T[]; diagnostics: Diagnostic[] } {
  const inRun = new Set(run.map((o) => o.target.toString()));
  const overrides = [...run];
  const diagnostics: Diagnostic[] = [];
  for (const o of file) {
    const addr = o.target.toString();
    if (!inRun.has(addr)) overrides.push(o);
    else diagnostics.push({ severity: "warning", ...warning(o, addr), subject: o.targetRange });
  }
  return { overrides, diagnostics };
}

export function mergeResourceOverrides(run: readonly OverrideResource[], file: readonly OverrideResource[]): { overrides: OverrideResource[]; diagnostics: Diagnostic[] } {
  return mergeOverrides(run, file, (o, addr) => ({
    summary: `Multiple \`${blockName(o)}\` blocks for the same address`,
    detail: `\`${addr}\` is overridden in both global file and local run blocks. The declaration in global file block will be ignored.`,
  }));
}

export function mergeModuleOverrides(run: readonly OverrideModule[], file: readonly OverrideModule[]): { overrides: OverrideModule[]; diagnostics: Diagnostic[] } {
  return mergeOverrides(run, file, (_o, addr) => ({
    summary: "Multiple `override_module` blocks for the same address",
    detail: `Module \`${addr}\` is overridden in both global file and local run blocks. The declaration in global file block will be ignored.`,
  }));
}

export function applyModuleOverrides(config: Config, overrides: readonly OverrideModule[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const o of overrides) {
    const target = descendent(config, o.target.steps);
    if (!target) {
      diagnostics.push(errorDiag(`Module not found: ${o.target.toString()}`, "Target points to an undefined module. Please, ensure module exists.", o.targetRange));
      continue;
    }
    const m = target.module;
    for (const name of o.outputs.keys()) {
      if (!m.outputs.has(name)) {
        diagnostics.push({ severity: "warning", summary: `Output not found: ${name}`, detail: "Specified output to override is not present in the module and will be ignored.", subject: o.targetRange });
      }
    }
    for (const out of m.outputs.values()) {
      const v = o.outputs.get(out.name);
      const parsed = parseExpression(v ? valueLiteral(v) : "null", o.targetRange.filename, o.targetRange.start);
      if (hasErrors(parsed.diagnostics)) {
        diagnostics.push(...parsed.diagnostics);
        continue;
      }
      out.expr = parsed.result;
      out.dependsOn = [];
      out.preconditions = [];
    }
    m.managedResources.clear();
    m.dataResources.clear();
    m.ephemeralResources.clear();
    m.locals.clear();
    m.moduleCalls.clear();
    m.checks.clear();
    m.moved = [];
    m.removed = [];
    m.imports = [];
    target.children.clear();
  }
  return diagnostics;
}

/** Override values by the resource they override (ConfigResource string: `module.a.data.x.y`). */
export type ResourceOverrides = Map<string, ReadonlyMap<string, Value>>;

function declared(config: Config, target: ConfigResource): { found: "module" | "resource" | "none"; mode?: "managed" | "data" } {
  const mod = descendent(config, target.module.steps)?.module;
  if (!mod) return { found: "none" };
  const key = target.resource.toString();
  const r = target.resource.mode === "data" ? mod.dataResources.get(key) : target.resource.mode === "managed" ? mod.managedResources.get(key) : undefined;
  if (!r) return { found: "module" };
  return { found: "resource", mode: target.resource.mode === "data" ? "data" : "managed" };
}

/** Resolves `override_resource`/`override_data` targets against the configuration under test. */
export function resolveResourceOverrides(config: Config, overrides: readonly OverrideResource[]): { byResource: ResourceOverrides; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const byResource: ResourceOverrides = new Map();
  for (const o of overrides) {
    const addr = o.target.toString();
    const d = declared(config, o.target);
    if (d.found === "none") {
      diagnostics.push(errorDiag(`Module not found: ${o.target.module.toString()}`, "Target points to resource in undefined module. Please, ensure module exists.", o.targetRange));
      continue;
    }
    if (d.found === "module") {
      diagnostics.push(errorDiag(`Resource not found: ${addr}`, "Target points to undefined resource. Please, ensure resource exists.", o.targetRange));
      continue;
    }
    if (d.mode !== o.mode) {
      const targetMode = o.mode === "data" ? "resource" : "data";
      diagnostics.push(
        errorDiag(
          `Unsupported \`${targetMode}\` target in \`${blockName(o)}\` block`,
          `Target \`${addr}\` is \`${targetMode}\` block itself and cannot be overridden with \`${blockName(o)}\`.`,
          o.targetRange,
        ),
      );
      continue;
    }
    byResource.set(addr, o.values);
  }
  return { byResource, diagnostics };
}

/** A mock_provider's own overrides, matched by address only (tofu does not check them against the configuration). */
export function providerResourceOverrides(overrides: readonly OverrideResource[]): ResourceOverrides {
  const out: ResourceOverrides = new Map();
  for (const o of overrides) if (!out.has(o.target.toString())) out.set(o.target.toString(), o.values);
  return out;
}
