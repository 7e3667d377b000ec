// The human plan renderer (OpenTofu's jsonformat.Plan.renderHuman): reads the JSON plan's
// resource_changes, resource_drift, output_changes and relevant_attributes, plus provider
// schemas, and prints what `tofu plan` prints between the refresh lines and the
// "Saved the plan" trailer. Browser-safe: it only builds a string.
import type { Block } from "../../providers/schema/index.js";
import { parseActionStrings, type Action } from "../action.js";
import type { UIMode } from "../plan.js";
import { cloneOpts, ensureValidAttributeName, newRenderOpts, renderDiff, type Diff } from "./computed.js";
import { computeDiffForBlock, computeDiffForOutput } from "./differ.js";
import { diffActionSymbol, horizontalRule, newColorize, wordWrap, type Colorize } from "./format.js";
import { JNumber, isJObject, parseJSON, type J, type JObject } from "./json.js";
import { alwaysMatcher, matcherFromPaths, parseMatcher, type Change, type Matcher } from "./structured.js";

/** Finds a resource type's block by provider source address, mode ("managed"/"data") and type. */
export type BlockLookup = (providerName: string, mode: string, type: string) => Block | undefined;

export interface HumanRenderOptions {
  color?: boolean;
  /** Terminal width; OpenTofu uses 78 when stdout is not a terminal. */
  columns?: number;
  showSensitive?: boolean;
  runningInAutomation?: boolean;
  /** plans.Quality: the plan errored, or applying it would change nothing. */
  errored?: boolean;
  noChanges?: boolean;
}

export type RenderResult = { ok: true; text: string } | { ok: false; error: string };

interface ResourceChangeJSON {
  address: string;
  previousAddress: string;
  moduleAddress: string;
  mode: string;
  type: string;
  name: string;
  index: J | undefined;
  indexRaw: string;
  deposed: string;
  providerName: string;
  change: JObject;
  actionReason: string;
  action: Action;
  importing: JObject | undefined;
  generatedConfig: string;
}

function str(o: JObject, k: string): string {
  const v = o[k];
  return typeof v === "string" ? v : "";
}

function rawJSON(v: J | undefined): string {
  if (v === undefined || v === null) return "";
  if (v instanceof JNumber) return v.text;
  return JSON.stringify(v);
}

class RenderError extends Error {}

function readResourceChange(v: J): ResourceChangeJSON {
  if (!isJObject(v)) throw new RenderError("resource change is not an object");
  const change = v["change"];
  if (!isJObject(change)) throw new RenderError("resource change has no change object");
  const actions = change["actions"];
  const action = Array.isArray(actions) ? parseActionStrings(actions.filter((a): a is string => typeof a === "string")) : undefined;
  if (!action) throw new RenderError(`unrecognized action slice: ${rawJSON(actions ?? null)}`);
  const imp = change["importing"];
  return {
    address: str(v, "address"),
    previousAddress: str(v, "previous_address"),
    moduleAddress: str(v, "module_address"),
    mode: str(v, "mode"),
    type: str(v, "type"),
    name: str(v, "name"),
    index: v["index"],
    indexRaw: rawJSON(v["index"]),
    deposed: str(v, "deposed"),
    providerName: str(v, "provider_name"),
    change,
    actionReason: str(v, "action_reason"),
    action,
    importing: isJObject(imp) ? imp : undefined,
    generatedConfig: str(change, "generated_config"),
  };
}

/** structured.FromJsonChange. */
function fromJsonChange(c: JObject, relevant: Matcher): Change {
  const get = (k: string): J => (Object.prototype.hasOwnProperty.call(c, k) ? (c[k] as J) : null);
  return {
    beforeExplicit: false,
    afterExplicit: false,
    before: get("before"),
    after: get("after"),
    unknown: get("after_unknown"),
    beforeSensitive: get("before_sensitive"),
    afterSensitive: get("after_sensitive"),
    replacePaths: parseMatcher(c["replace_paths"], false),
    relevantAttributes: relevant,
  };
}

interface RenderedDiff {
  change: ResourceChangeJSON;
  diff: Diff;
}

function moved(d: RenderedDiff): boolean {
  return d.change.previousAddress.length > 0 && d.change.previousAddress !== d.change.address;
}

function importing(d: RenderedDiff): boolean {
  return d.change.importing !== undefined;
}

function actionDescription(a: Action): string {
  switch (a) {
    case "Create":
      return "  [green]+[reset] create";
    case "Delete":
      return "  [red]-[reset] destroy";
    case "Update":
      return "  [yellow]~[reset] update in-place (current -> planned)";
    case "CreateThenDelete":
      return "[green]+[reset]/[red]-[reset] create replacement and then destroy";
    case "DeleteThenCreate":
      return "[red]-[reset]/[green]+[reset] destroy and then create replacement";
    case "ForgetThenCreate":
      return "[red].[reset]/[green]+[reset] forget and then create replacement";
    case "Read":
      return " [cyan]<=[reset] read (data resources)";
    case "Forget":
      return "  [red].[reset] forget";
    case "NoOp":
      throw new RenderError("unrecognized change type: NoOp");
  }
}

function resourceChangeComment(rc: ResourceChangeJSON, action: Action, cause: "drift" | "change"): string {
  let buf = "";
  let dispAddr = rc.address;
  if (rc.deposed.length !== 0) dispAddr = `${dispAddr} (deposed object ${rc.deposed})`;
  let printedMoved = false;
  const replaceWording = (): string => {
    switch (rc.actionReason) {
      case "replace_because_tainted":
        return `[bold]  # ${dispAddr}[reset] is tainted, so it must be [bold][red]replaced[reset]`;
      case "replace_by_request":
        return `[bold]  # ${dispAddr}[reset] will be [bold][red]replaced[reset], as requested`;
      case "replace_by_triggers":
        return `[bold]  # ${dispAddr}[reset] will be [bold][red]replaced[reset] due to changes in replace_triggered_by`;
      default:
        return `[bold]  # ${dispAddr}[reset] must be [bold][red]replaced[reset]`;
    }
  };
  const leftOver = "\n  # (left over from a partially-failed replacement of this instance)";
  switch (action) {
    case "Create":
      buf += `[bold]  # ${dispAddr}[reset] will be created`;
      break;
    case "Read":
      buf += `[bold]  # ${dispAddr}[reset] will be read during apply`;
      if (rc.actionReason === "read_because_config_unknown") buf += "\n  # (config refers to values not yet known)";
      else if (rc.actionReason === "read_because_dependency_pending") buf += "\n  # (depends on a resource or a module with changes pending)";
      else if (rc.actionReason === "read_because_check_nested") buf += "\n  # (config will be reloaded to verify a check block)";
      break;
    case "Update":
      buf += cause === "change" ? `[bold]  # ${dispAddr}[reset] will be updated in-place` : `[bold]  # ${dispAddr}[reset] has changed`;
      break;
    case "CreateThenDelete":
    case "DeleteThenCreate":
      buf += replaceWording();
      break;
    case "Delete":
      buf += cause === "change" ? `[bold]  # ${dispAddr}[reset] will be [bold][red]destroyed[reset]` : `[bold]  # ${dispAddr}[reset] has been deleted`;
      switch (rc.actionReason) {
        case "delete_because_no_resource_config":
          buf += `\n  # (because ${rc.type}.${rc.name} is not in configuration)`;
          break;
        case "delete_because_no_move_target":
          buf += `\n  # (because ${rc.previousAddress} was moved to ${rc.address}, which is not in configuration)`;
          break;
        case "delete_because_no_module":
          buf += `\n  # (because ${rc.moduleAddress} is not in configuration)`;
          break;
        case "delete_because_wrong_repetition":
          if (rc.index === undefined || rc.index === null) buf += "\n  # (because resource uses count or for_each)";
          else if (rc.index instanceof JNumber) buf += "\n  # (because resource does not use count)";
          else if (typeof rc.index === "string") buf += "\n  # (because resource does not use for_each)";
          break;
        case "delete_because_count_index":
          buf += `\n  # (because index [${rc.indexRaw}] is out of range for count)`;
          break;
        case "delete_because_enabled_false":
          buf += "\n  # (because enabled is false)";
          break;
        case "delete_because_each_key":
          buf += `\n  # (because key [${rc.indexRaw}] is not in for_each map)`;
          break;
      }
      if (rc.deposed.length !== 0) buf += leftOver;
      break;
    case "Forget":
      buf += `[bold]  # ${dispAddr}[reset] will be removed from the OpenTofu state [bold][red]but will not be destroyed[reset]`;
      if (rc.actionReason === "forgot_because_lifecycle_destroy_in_state") {
        buf += " \n (because [bold]lifecycle.destroy = false[reset] was configured before this resource was removed from the configuration)";
      } else if (rc.actionReason === "forgot_because_lifecycle_destroy_in_config") {
        buf += " \n (because [bold]lifecycle.destroy = false[reset] is set in the configuration)";
      }
      if (rc.deposed.length !== 0) buf += leftOver;
      break;
    case "ForgetThenCreate":
      buf += replaceWording();
      buf += " - [yellow]older instance will [bold]not[reset][yellow] be destroyed [reset]([bold]lifecycle.destroy = false[reset])";
      if (rc.deposed.length !== 0) buf += leftOver;
      break;
    case "NoOp":
      if (rc.previousAddress.length > 0 && rc.previousAddress !== rc.address) {
        buf += `[bold]  # ${rc.previousAddress}[reset] has moved to [bold]${dispAddr}[reset]`;
        printedMoved = true;
        break;
      }
      if (rc.importing !== undefined) {
        buf += `[bold]  # ${dispAddr}[reset] will be imported`;
        if (rc.generatedConfig.length > 0) buf += "\n  #[reset] (config will be generated)";
        break;
      }
      buf += `${dispAddr} has an action the plan renderer doesn't support (this is a bug)`;
      break;
  }
  buf += "\n";
  if (rc.previousAddress.length > 0 && rc.previousAddress !== rc.address && !printedMoved) buf += `  # [reset](moved from ${rc.previousAddress})\n`;
  if (rc.importing !== undefined) {
    const id = rc.importing["id"];
    if (typeof id === "string" && id.length > 0) buf += `  # [reset](imported from "${id}")\n`;
    else buf += "  # [reset](will be imported first)\n";
  }
  if (rc.importing !== undefined && (action === "CreateThenDelete" || action === "DeleteThenCreate")) {
    buf += "  # [reset][yellow]Warning: this will destroy the imported resource[reset]\n";
  }
  return buf;
}

function resourceChangeHeader(rc: ResourceChangeJSON): string {
  return `${rc.mode === "managed" ? "resource" : "data"} "${rc.type}" "${rc.name}"`;
}

function renderHumanDiff(c: Colorize, showSensitive: boolean, d: RenderedDiff, cause: "drift" | "change"): string | undefined {
  if (d.change.mode === "ephemeral") return undefined;
  const action = d.change.action;
  if (action === "NoOp" && !moved(d) && !importing(d)) return undefined;
  let buf = c.color(resourceChangeComment(d.change, action, cause));
  const opts = newRenderOpts(c, showSensitive);
  if (action === "Forget") {
    opts.hideDiffActionSymbols = true;
    opts.overrideNullSuffix = true;
  }
  opts.showUnchangedChildren = importing(d);
  buf += `${c.color(diffActionSymbol(action))} ${resourceChangeHeader(d.change)} ${renderDiff(d.diff, 0, opts)}`;
  return buf;
}

function renderOutputs(c: Colorize, showSensitive: boolean, outputs: Map<string, Diff>): string {
  const keys = [...outputs.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const escaped = new Map(keys.map((k) => [k, ensureValidAttributeName(k)]));
  let max = 0;
  for (const e of escaped.values()) max = Math.max(max, new TextEncoder().encode(e).length);
  const rendered: string[] = [];
  for (const k of keys) {
    const o = outputs.get(k) as Diff;
    if (o.action === "NoOp") continue;
    const e = escaped.get(k) as string;
    const padded = e + " ".repeat(Math.max(0, max - [...e].length));
    rendered.push(`${c.color(diffActionSymbol(o.action))} ${padded} = ${renderDiff(o, 0, cloneOpts(newRenderOpts(c, showSensitive)))}`);
  }
  return rendered.join("\n");
}

/** Renders the human plan from the JSON plan text (or its parsed form) and a schema lookup. */
export function renderHumanPlan(plan: string | J, schemas: BlockLookup, mode: UIMode, options: HumanRenderOptions = {}): RenderResult {
  try {
    return { ok: true, text: render(plan, schemas, mode, options) };
  } catch (e) {
    if (e instanceof RenderError) return { ok: false, error: e.message };
    throw e;
  }
}

function render(planIn: string | J, schemas: BlockLookup, mode: UIMode, options: HumanRenderOptions): string {
  let plan: J = planIn;
  if (typeof planIn === "string") {
    const p = parseJSON(planIn);
    if (!p.ok) throw new RenderError(`invalid JSON plan: ${p.error}`);
    plan = p.value;
  }
  if (!isJObject(plan)) throw new RenderError("JSON plan is not an object");
  const c = newColorize(options.color ?? false);
  const columns = options.columns ?? 78;
  const showSensitive = options.showSensitive ?? false;
  let out = "";
  const print = (s: string): void => {
    out += s;
  };
  const println = (s = ""): void => {
    out += `${s}\n`;
  };
  const list = (k: string): J[] => {
    const v = (plan as JObject)[k];
    return Array.isArray(v) ? v : [];
  };
  const schemaFor = (rc: ResourceChangeJSON): Block => {
    if (rc.mode === "ephemeral") throw new RenderError(`ephemeral resources are not meant to be stored in the plan file but schema for ephemeral ${rc.type}.${rc.name} has been requested`);
    const b = schemas(rc.providerName, rc.mode, rc.type);
    if (!b) throw new RenderError(`no schema found for ${rc.address} (in provider ${rc.providerName})`);
    return b;
  };

  // precomputeDiffs
  const relevant = list("relevant_attributes").filter(isJObject);
  const drift: RenderedDiff[] = [];
  for (const raw of list("resource_drift")) {
    const rc = readResourceChange(raw);
    let matcher: Matcher | undefined;
    if (mode === "refresh-only") matcher = alwaysMatcher();
    else {
      const paths: J[][] = [];
      for (const ra of relevant) {
        const res = str(ra, "resource");
        const attr = ra["attribute"];
        if ((res.length === 0 || res === rc.address) && Array.isArray(attr)) paths.push(attr);
      }
      if (paths.length > 0) matcher = matcherFromPaths(paths, true);
    }
    if (!matcher) continue;
    drift.push({ change: rc, diff: computeDiffForBlock(fromJsonChange(rc.change, matcher), schemaFor(rc)) });
  }
  const changes: RenderedDiff[] = list("resource_changes").map((raw) => {
    const rc = readResourceChange(raw);
    return { change: rc, diff: computeDiffForBlock(fromJsonChange(rc.change, alwaysMatcher()), schemaFor(rc)) };
  });
  const outputDiffs = new Map<string, Diff>();
  const oc = (plan as JObject)["output_changes"];
  if (isJObject(oc)) {
    for (const [k, v] of Object.entries(oc)) if (isJObject(v)) outputDiffs.set(k, computeDiffForOutput(fromJsonChange(v, alwaysMatcher())));
  }
  const diffsEmpty = (): boolean => {
    for (const d of changes) if (d.diff.action !== "NoOp" || moved(d)) return false;
    for (const o of outputDiffs.values()) if (o.action !== "NoOp") return false;
    return true;
  };

  // renderHumanDiffDrift
  let haveRefreshChanges = false;
  const drs = mode === "refresh-only" ? drift : drift.filter((d) => d.diff.action !== "NoOp");
  if (drs.length > 0 && !(diffsEmpty() && mode !== "refresh-only")) {
    haveRefreshChanges = true;
    print(c.color("\n[bold][cyan]Note:[reset][bold] Objects have changed outside of OpenTofu\n"));
    println();
    print(
      wordWrap(
        'OpenTofu detected the following changes made outside of OpenTofu since the last "tofu apply" which may have affected this plan:\n',
        columns,
      ),
    );
    for (const d of drs) {
      const r = renderHumanDiff(c, showSensitive, d, "drift");
      if (r !== undefined) {
        println();
        println(r);
      }
    }
    if (mode === "refresh-only") {
      println(
        wordWrap(
          "\n\nThis is a refresh-only plan, so OpenTofu will not take any actions to undo these. If you were expecting these changes then you can apply this plan to record the updated values in the OpenTofu state without changing any remote objects.",
          columns,
        ),
      );
    } else {
      println(
        wordWrap(
          "\n\nUnless you have made equivalent changes to your configuration, or ignored the relevant attributes using ignore_changes, the following plan may include actions to undo or respond to these changes.",
          columns,
        ),
      );
    }
  }

  let willPrintResourceChanges = false;
  const counts = new Map<Action, number>();
  let importingCount = 0;
  let forgettingCount = 0;
  const shown: RenderedDiff[] = [];
  for (const d of changes) {
    const action = d.change.action;
    if (action === "NoOp" && !moved(d) && !importing(d)) continue;
    if (action === "Delete" && d.change.mode !== "managed") continue;
    if (d.change.mode === "ephemeral") continue;
    shown.push(d);
    if (importing(d)) importingCount++;
    if (action === "Forget" || action === "ForgetThenCreate") forgettingCount++;
    if (action !== "NoOp") {
      willPrintResourceChanges = true;
      counts.set(action, (counts.get(action) ?? 0) + 1);
    }
  }
  const count = (a: Action): number => counts.get(a) ?? 0;
  const outputs = renderOutputs(c, showSensitive, outputDiffs);

  if (shown.length === 0 && outputs.length === 0) {
    if (options.errored) {
      if (haveRefreshChanges) {
        print(horizontalRule(c, columns));
        println();
      }
      print(c.color("\n[reset][bold][red]Planning failed.[reset][bold] OpenTofu encountered an error while generating this plan.[reset]\n\n"));
    } else {
      switch (mode) {
        case "refresh-only":
          if (haveRefreshChanges) return out;
          print(c.color("\n[reset][bold][green]No changes.[reset][bold] Your infrastructure still matches the configuration.[reset]\n\n"));
          println(
            wordWrap(
              "OpenTofu has checked that the real remote objects still match the result of your most recent changes, and found no differences.",
              columns,
            ),
          );
          break;
        case "destroy":
          if (haveRefreshChanges) {
            print(horizontalRule(c, columns));
            println();
          }
          print(c.color("\n[reset][bold][green]No changes.[reset][bold] No objects need to be destroyed.[reset]\n\n"));
          println(wordWrap("Either you have not created any objects yet or the existing objects were already deleted outside of OpenTofu.", columns));
          break;
        default:
          if (haveRefreshChanges) {
            print(horizontalRule(c, columns));
            println("");
          }
          print(c.color("\n[reset][bold][green]No changes.[reset][bold] Your infrastructure matches the configuration.[reset]\n\n"));
          if (haveRefreshChanges) {
            if (!options.noChanges) {
              println(
                wordWrap(
                  "Your configuration already matches the changes detected above, so applying this plan will only update the state to include the changes detected above and won't change any real infrastructure.",
                  columns,
                ),
              );
            } else {
              const suggestion = options.runningInAutomation ? "." : ":\n  tofu apply -refresh-only";
              println(
                wordWrap(
                  `Your configuration already matches the changes detected above. If you'd like to update the OpenTofu state to match, create and apply a refresh-only plan${suggestion}`,
                  columns,
                ),
              );
            }
            return out;
          }
          println(
            wordWrap(
              "OpenTofu has compared your real infrastructure against your configuration and found no differences, so no changes are needed.",
              columns,
            ),
          );
      }
    }
  }
  if (haveRefreshChanges) {
    print(horizontalRule(c, columns));
    println();
  }
  if (willPrintResourceChanges) {
    println(wordWrap("\nOpenTofu used the selected providers to generate the following execution plan. Resource actions are indicated with the following symbols:", columns));
    for (const a of ["Create", "Update", "Delete", "DeleteThenCreate", "CreateThenDelete", "Read", "ForgetThenCreate", "Forget"] as const) {
      if (count(a) > 0) println(c.color(actionDescription(a)));
    }
  }
  if (shown.length > 0) {
    print(options.errored ? "\nOpenTofu planned the following actions, but then encountered a problem:\n" : "\nOpenTofu will perform the following actions:\n");
    for (const d of shown) {
      const r = renderHumanDiff(c, showSensitive, d, "change");
      if (r !== undefined) {
        out += "\n";
        println(r);
      }
    }
    const toAdd = count("Create") + count("DeleteThenCreate") + count("CreateThenDelete") + count("ForgetThenCreate");
    const toDestroy = count("Delete") + count("DeleteThenCreate") + count("CreateThenDelete");
    const upd = count("Update");
    if (importingCount > 0) {
      if (forgettingCount > 0) print(c.color(`\n[bold]Plan:[reset] ${importingCount} to import, ${toAdd} to add, ${upd} to change, ${toDestroy} to destroy, ${forgettingCount} to forget.\n`));
      else print(c.color(`\n[bold]Plan:[reset] ${importingCount} to import, ${toAdd} to add, ${upd} to change, ${toDestroy} to destroy.\n`));
    } else if (forgettingCount > 0) {
      print(c.color(`\n[bold]Plan:[reset] ${toAdd} to add, ${upd} to change, ${toDestroy} to destroy, ${forgettingCount} to forget.\n`));
    } else {
      print(c.color(`\n[bold]Plan:[reset] ${toAdd} to add, ${upd} to change, ${toDestroy} to destroy.\n`));
    }
  }
  if (outputs.length > 0) {
    print("\nChanges to Outputs:\n");
    print(`${outputs}\n`);
    if (counts.size === 0) {
      println(wordWrap("\nYou can apply this plan to save these new output values to the OpenTofu state, without changing any real infrastructure.", columns));
    }
  }
  return out;
}
