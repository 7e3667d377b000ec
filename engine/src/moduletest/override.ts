// `override_module` and `override_resource`/`override_data` applied to one run's configuration
// (a fresh load, so changing it touches nothing else). A module override turns the called module
// into one with the same variables and only the given outputs (others null), so nothing inside it
// is planned. Resource overrides reach the provider by resource type (core gives providers no
// resource addresses): a target whose type another resource of the configuration shares is
// refused with a clear error rather than overriding both.
import { allConfigs, descendent, type Config } from "../configs/index.js";
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

export function applyModuleOverrides(config: Config, overrides: readonly OverrideModule[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const o of overrides) {
    const target = descendent(config, o.target);
    if (!target) {
      diagnostics.push(errorDiag("Invalid override target", `Module call module.${o.target.join(".module.")} is not declared in the configuration under test.`, o.targetRange));
      continue;
    }
    const m = target.module;
    for (const [name, out] of m.outputs) {
      const v = o.outputs.get(name);
      const parsed = parseExpression(v ? valueLiteral(v) : "null", o.targetRange.filename, o.targetRange.start);
      if (hasErrors(parsed.diagnostics)) {
        diagnostics.push(...parsed.diagnostics);
        continue;
      }
      out.expr = parsed.result;
      out.dependsOn = [];
      out.preconditions = [];
    }
    for (const name of o.outputs.keys()) {
      if (!m.outputs.has(name)) diagnostics.push({ severity: "warning", summary: `Ignored override for output \`${name}\``, detail: `The module has no output ${JSON.stringify(name)}.`, subject: o.targetRange });
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

/** Override values by provider (source string) and resource type, per mode. */
export type TypeOverrides = Map<string, { managed: Map<string, Map<string, Value>>; data: Map<string, Map<string, Value>> }>;

export function resourceOverridesByType(config: Config, overrides: readonly OverrideResource[]): { byType: TypeOverrides; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const byType: TypeOverrides = new Map();
  const all = allConfigs(config);
  for (const o of overrides) {
    const steps = o.target.split(".");
    const path: string[] = [];
    let i = 0;
    while (steps[i] === "module") {
      path.push(steps[i + 1] ?? "");
      i += 2;
    }
    const local = steps.slice(i).join(".");
    const mod = descendent(config, path)?.module;
    const rc = o.mode === "data" ? mod?.dataResources.get(local) : mod?.managedResources.get(local);
    if (!rc || !rc.provider) {
      diagnostics.push(errorDiag("Invalid override target", `${o.target} is not declared in the configuration under test.`, o.targetRange));
      continue;
    }
    const same: string[] = [];
    for (const c of all) {
      const table = o.mode === "data" ? c.module.dataResources : c.module.managedResources;
      for (const [k, r] of table) if (r.type === rc.type && r !== rc) same.push(`${c.path.map((p) => `module.${p}.`).join("")}${k}`);
    }
    if (same.length > 0) {
      diagnostics.push(
        errorDiag(
          "Override not supported for a shared resource type",
          `Terrace overrides resources by type, and ${rc.type} is also used by ${same.join(", ")}. Override a resource whose type no other resource of the configuration uses, or mock the provider with mock_resource defaults.`,
          o.targetRange,
        ),
      );
      continue;
    }
    const k = rc.provider.toString();
    let entry = byType.get(k);
    if (!entry) byType.set(k, (entry = { managed: new Map(), data: new Map() }));
    entry[o.mode].set(rc.type, new Map(o.values));
  }
  return { byType, diagnostics };
}
