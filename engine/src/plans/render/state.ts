// The human form of a state (`tofu show`, `tofu state show`): OpenTofu's jsonformat
// RenderHumanState, which draws each resource and output as a no-op change through the same
// differ and renderer as plans, without diff symbols and with unchanged children shown.
import { errorDiag, type Diagnostic } from "../../hcl/index.js";
import type { File } from "../../states/model.js";
import { typeFromJSON } from "../../values/index.js";
import { marshalStateJSON } from "../jsonstate.js";
import { newSchemas, type ProviderSchemaSet } from "../schemas.js";
import { newRenderOpts, renderDiff } from "./computed.js";
import { computeDiffForBlock, computeDiffForType } from "./differ.js";
import { newColorize } from "./format.js";
import { isJObject, parseJSON as parseGenericJSON, type J, type JObject } from "./json.js";
import { alwaysMatcher, emptyMatcher, type Change } from "./structured.js";

function member(o: JObject, k: string): J {
  return Object.prototype.hasOwnProperty.call(o, k) ? (o[k] as J) : null;
}

function str(o: JObject, k: string): string {
  const v = o[k];
  return typeof v === "string" ? v : "";
}

function list(o: JObject, k: string): JObject[] {
  const v = o[k];
  return Array.isArray(v) ? v.filter(isJObject) : [];
}

/** structured.FromJsonResource / FromJsonOutput: the value as a no-op change. */
function noOpChange(value: J, sensitive: J): Change {
  return {
    beforeExplicit: false,
    afterExplicit: false,
    before: value,
    after: value,
    unknown: false,
    beforeSensitive: sensitive,
    afterSensitive: sensitive,
    replacePaths: emptyMatcher(false),
    relevantAttributes: alwaysMatcher(),
  };
}

export type HumanStateResult = { ok: true; text: string } | { ok: false; diagnostics: Diagnostic[] };

/** jsonformat.Renderer.RenderHumanState of a state snapshot. */
export function renderHumanState(file: File, schemaSets: Map<string, ProviderSchemaSet>, opts: { color: boolean; showSensitive?: boolean }): HumanStateResult {
  const schemas = newSchemas(schemaSets);
  const m = marshalStateJSON(file, schemas);
  if (!m.ok) return { ok: false, diagnostics: [errorDiag("Failed to marshal state to json", m.error)] };
  const parsed = parseGenericJSON(m.json);
  if (!parsed.ok || !isJObject(parsed.value)) return { ok: false, diagnostics: [errorDiag("Failed to marshal state to json", "invalid state JSON")] };
  const values = parsed.value["values"];
  const root = isJObject(values) && isJObject(values["root_module"]) ? values["root_module"] : undefined;
  const outputs = isJObject(values) && isJObject(values["outputs"]) ? values["outputs"] : undefined;
  const c = newColorize(opts.color);
  if ((!root || (list(root, "resources").length === 0 && list(root, "child_modules").length === 0)) && (!outputs || Object.keys(outputs).length === 0)) {
    return { ok: true, text: c.color("The state file is empty. No resources are represented.\n") };
  }
  const ropts = newRenderOpts(c, opts.showSensitive ?? false);
  ropts.showUnchangedChildren = true;
  ropts.hideDiffActionSymbols = true;
  let out = "";
  const errors: Diagnostic[] = [];
  const renderModule = (module: JObject, firstIn: boolean): void => {
    let first = firstIn;
    const resources = list(module, "resources");
    if (resources.length > 0 && !first) out += "\n";
    for (const r of resources) {
      if (!first) out += "\n";
      first = false;
      const address = str(r, "address");
      const deposed = str(r, "deposed_key");
      if (deposed !== "") out += `# ${address}: (deposed object ${deposed})`;
      else if (r["tainted"] === true) out += `# ${address}: (tainted)`;
      else out += `# ${address}:`;
      out += "\n";
      const mode = str(r, "mode");
      const schema = schemas.resourceTypeConfig(str(r, "provider_name"), mode === "data" ? "data" : "managed", str(r, "type"));
      if (!schema) {
        errors.push(errorDiag("Failed to render the state", `no schema found for ${address} (in provider ${str(r, "provider_name")})`));
        continue;
      }
      const diff = computeDiffForBlock(noOpChange(member(r, "values"), member(r, "sensitive_values")), schema.block);
      const kw = mode === "data" ? "data" : "resource";
      out += `${kw} ${JSON.stringify(str(r, "type"))} ${JSON.stringify(str(r, "name"))} ${renderDiff(diff, 0, ropts)}\n`;
    }
    for (const child of list(module, "child_modules")) renderModule(child, first);
  };
  if (root) renderModule(root, true);
  if (outputs && Object.keys(outputs).length > 0) {
    out += "\n\nOutputs:\n\n";
    for (const key of Object.keys(outputs).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
      const o = outputs[key];
      if (!isJObject(o)) continue;
      const t = typeFromJSON(o["type"]);
      if (!t.ok) {
        errors.push(errorDiag("Failed to render the state", `failed to unmarshal output type: ${t.error}`));
        continue;
      }
      const diff = computeDiffForType(noOpChange(member(o, "value"), member(o, "sensitive")), t.type);
      out += `${key} = ${renderDiff(diff, 0, ropts)}\n`;
    }
  }
  if (errors.length > 0) return { ok: false, diagnostics: errors };
  return { ok: true, text: out };
}
