// OpenTofu's streamed JSON UI (`-json` on plan, apply, destroy and refresh): command/views'
// JSONView, jsonHook and OperationJSON, with the message payloads of command/views/json. One JSON
// object per line, as hclog writes them: the top-level keys sorted (a Go map), "@module" "tofu.ui",
// "@timestamp" with microseconds; payload objects keep their Go struct field order. The logger has
// HTML escaping turned off; only output values, which ctyjson.Marshal wrote, have "<", ">" and "&"
// escaped (values' marshalJSON does that already).
import type { AbsResourceInstance } from "../addrs/index.js";
import type { Hooks } from "../core/index.js";
import { diagnosticToJSON, type Diagnostic } from "../hcl/index.js";
import type { Action, ActionReason, Plan, ResourceInstanceChange } from "../plans/index.js";
import type { OutputValue, State } from "../states/index.js";
import { goDurationString, marshalJSON, marshalType, unmarkDeep, type Value } from "../values/index.js";
import { hclogJSONTime } from "../logging/index.js";
import type { OperationView, View } from "./view.js";

/** The version of the message schema (views.JSON_UI_VERSION). */
export const JSON_UI_VERSION = "1.2";

/** How often an apply_progress message repeats while one change runs (jsonHook's heartbeat). */
export const HEARTBEAT_INTERVAL_MS = 10_000;

type Level = "info" | "warn" | "error";

/** A JSON value built in the order it is written. */
type JSONish = null | boolean | number | string | JSONish[] | { [k: string]: JSONish | undefined } | RawJSON;

/** Text already in JSON form (Go's json.RawMessage). */
class RawJSON {
  constructor(readonly text: string) {}
}

/** Go's encoder always escapes U+2028 and U+2029, HTML escaping aside. */
function goStringEscapes(s: string): string {
  return s.replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

function encode(v: JSONish | undefined): string {
  if (v instanceof RawJSON) return v.text;
  if (v === null || v === undefined) return "null";
  if (typeof v === "string") return goStringEscapes(JSON.stringify(v));
  if (typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(encode).join(",")}]`;
  const parts: string[] = [];
  for (const [k, x] of Object.entries(v)) if (x !== undefined) parts.push(`${goStringEscapes(JSON.stringify(k))}:${encode(x)}`);
  return `{${parts.join(",")}}`;
}

/** Go's time.Duration.String for whole seconds ("0s", "10s", "1m4s", "1h0m0s"). */
export function goDuration(seconds: number): string {
  return goDurationString(Math.max(0, Math.round(seconds)) * 1000);
}

/** views/json's ResourceAddr. */
export function resourceAddrJSON(addr: AbsResourceInstance): JSONish {
  const key = addr.resource.key;
  return {
    addr: addr.toString(),
    module: addr.module.toString(),
    resource: addr.resource.toString(),
    implied_provider: addr.resource.resource.impliedProvider(),
    resource_type: addr.resource.resource.type,
    resource_name: addr.resource.resource.name,
    resource_key: key.kind === "NoKey" ? null : key.value,
  };
}

/** jsonentities.ParseChangeAction. */
export function changeActionJSON(a: Action): string {
  switch (a) {
    case "Create":
      return "create";
    case "Read":
      return "read";
    case "Update":
      return "update";
    case "DeleteThenCreate":
    case "CreateThenDelete":
      return "replace";
    case "Delete":
      return "delete";
    case "Forget":
      return "remove";
    default:
      return "noop";
  }
}

/** jsonentities' changeReason: the reason words of the streamed UI (not those of `show -json`). */
function changeReasonJSON(r: ActionReason): string {
  switch (r) {
    case "None":
      return "";
    case "ReplaceBecauseTainted":
      return "tainted";
    case "ReplaceByRequest":
      return "requested";
    case "ReplaceBecauseCannotUpdate":
      return "cannot_update";
    case "ReplaceByTriggers":
      return "replace_triggered_by";
    case "DeleteBecauseNoResourceConfig":
      return "delete_because_no_resource_config";
    case "DeleteBecauseWrongRepetition":
      return "delete_because_wrong_repetition";
    case "DeleteBecauseCountIndex":
      return "delete_because_count_index";
    case "DeleteBecauseEnabledFalse":
      return "delete_because_enabled_false";
    case "DeleteBecauseEachKey":
      return "delete_because_each_key";
    case "DeleteBecauseNoModule":
      return "delete_because_no_module";
    case "DeleteBecauseNoMoveTarget":
      return "delete_because_no_move_target";
    case "ReadBecauseConfigUnknown":
      return "read_because_config_unknown";
    case "ReadBecauseDependencyPending":
      return "read_because_dependency_pending";
    case "ReadBecauseCheckNested":
      return "read_because_check_nested";
    case "ForgotBecauseLifecycleDestroyInConfig":
      return "forgot_because_lifecycle_destroy_in_config";
    case "ForgotBecauseLifecycleDestroyInState":
      return "forgot_because_lifecycle_destroy_in_state";
    default:
      return "unknown";
  }
}

/** jsonentities.NewResourceInstanceChange: a move or an import shows instead of a NoOp. */
export function resourceInstanceChangeJSON(c: ResourceInstanceChange): { json: JSONish; addr: string; action: string } {
  let action = changeActionJSON(c.change.action);
  let previous: JSONish | undefined;
  if (!c.addr.equal(c.prevRunAddr)) {
    if (action === "noop") action = "move";
    previous = resourceAddrJSON(c.prevRunAddr);
  }
  let importing: JSONish | undefined;
  if (c.change.importing) {
    if (action === "noop") action = "import";
    importing = { id: c.change.importing.id === "" ? undefined : c.change.importing.id };
  }
  const reason = changeReasonJSON(c.actionReason);
  return {
    addr: c.addr.toString(),
    action,
    json: {
      resource: resourceAddrJSON(c.addr),
      previous_resource: previous,
      action,
      reason: reason === "" ? undefined : reason,
      importing,
      generated_config: c.change.generatedConfig === "" ? undefined : c.change.generatedConfig,
    },
  };
}

export interface ChangeSummary {
  add: number;
  change: number;
  import: number;
  remove: number;
  forget: number;
  operation: "apply" | "destroy" | "plan";
}

/** ChangeSummary.String: these texts are a public interface (TACOS parse them). */
export function changeSummaryMessage(cs: ChangeSummary): string {
  switch (cs.operation) {
    case "apply":
      return `Apply complete! Resources: ${cs.import > 0 ? `${cs.import} imported, ` : ""}${cs.add} added, ${cs.change} changed, ${cs.remove} destroyed${cs.forget > 0 ? `, ${cs.forget} forgotten.` : "."}`;
    case "destroy":
      return `Destroy complete! Resources: ${cs.remove} destroyed.`;
    case "plan":
      return `Plan: ${cs.import > 0 ? `${cs.import} to import, ` : ""}${cs.add} to add, ${cs.change} to change, ${cs.remove} to destroy${cs.forget > 0 ? `, ${cs.forget} to forget.` : "."}`;
  }
}

/** format.ObjectValueID: the "id" (else "name") string attribute of an object, when usable. */
export function objectValueID(v: Value): [string, string] {
  if (v.kind !== "object") return ["", ""];
  for (const key of ["id", "name"]) {
    const a = v.attrs.get(key);
    // Go's switch takes the first attribute of type string, usable or not.
    if (!a || a.type.kind !== "string") continue;
    return a.kind === "string" && a.marks.size === 0 ? [key, a.value] : ["", ""];
  }
  return ["", ""];
}

/** format.ObjectValueIDOrName: the id, else the name or the tags' name. */
export function objectValueIDOrName(v: Value): [string, string] {
  const id = objectValueID(v);
  if (id[0] !== "" || v.kind !== "object") return id;
  const name = v.attrs.get("name");
  if (name && name.type.kind === "string") return name.kind === "string" && name.marks.size === 0 ? ["name", name.value] : ["", ""];
  const tags = v.attrs.get("tags");
  if (tags && tags.kind === "map" && tags.marks.size === 0) {
    for (const k of ["name", "Name"]) {
      const t = tags.attrs.get(k);
      if (t) return t.kind === "string" && t.marks.size === 0 ? [`tags.${k}`, t.value] : ["", ""];
    }
  }
  return ["", ""];
}

/** The streamed JSON view (views.JSONView). Diagnostics quote the sources the human view holds. */
export class JSONView {
  constructor(
    private readonly view: View,
    private readonly version: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private write(level: Level, message: string, fields: Record<string, JSONish>): void {
    const all: Record<string, JSONish> = { "@level": level, "@message": message, "@module": "tofu.ui", "@timestamp": hclogJSONTime(this.now()), ...fields };
    const keys = Object.keys(all).sort();
    this.view.io.stdout.write(`{${keys.map((k) => `${JSON.stringify(k)}:${encode(all[k])}`).join(",")}}\n`);
  }

  /** The first message of every run. */
  versionMessage(): void {
    this.write("info", `OpenTofu ${this.version}`, { type: "version", tofu: this.version, ui: JSON_UI_VERSION });
  }

  log(message: string): void {
    this.write("info", message, { type: "log" });
  }

  /** Ui.Output through the JSON view (init, get): the command's own messages. */
  output(message: string): void {
    this.write("info", message, { type: "output" });
  }

  /** Ui.Info through the JSON view: a message with no type. */
  info(message: string): void {
    this.write("info", message, {});
  }

  /** Ui.Error through the JSON view: a message with no type. */
  error(message: string): void {
    this.write("error", message, {});
  }

  diagnostics(diags: readonly Diagnostic[]): void {
    for (const d of diags) {
      const json = diagnosticToJSON(d, this.view.sources) as unknown as JSONish;
      if (d.severity === "warning") this.write("warn", `Warning: ${d.summary}`, { type: "diagnostic", diagnostic: json });
      else this.write("error", `Error: ${d.summary}`, { type: "diagnostic", diagnostic: json });
    }
  }

  plannedChange(c: ResourceInstanceChange): void {
    const r = resourceInstanceChangeJSON(c);
    this.write("info", `${r.addr}: Plan to ${r.action}`, { type: "planned_change", change: r.json });
  }

  resourceDrift(c: ResourceInstanceChange): void {
    const r = resourceInstanceChangeJSON(c);
    this.write("info", `${r.addr}: Drift detected (${r.action})`, { type: "resource_drift", change: r.json });
  }

  changeSummary(cs: ChangeSummary): void {
    const changes = { add: cs.add, change: cs.change, import: cs.import, remove: cs.remove, forget: cs.forget, operation: cs.operation };
    this.write("info", changeSummaryMessage(cs), { type: "change_summary", changes });
  }

  hook(type: string, message: string, hook: JSONish): void {
    this.write("info", message, { type, hook });
  }

  outputs(outputs: ReadonlyMap<string, JSONish>): void {
    const obj: Record<string, JSONish> = {};
    for (const name of [...outputs.keys()].sort()) obj[name] = outputs.get(name) as JSONish;
    this.write("info", `Outputs: ${outputs.size}`, { type: "outputs", outputs: obj });
  }

  /** OperationJSON.Plan: drift, the planned changes, their summary, the root outputs' actions. */
  plan(plan: Plan): void {
    for (const d of plan.driftedResources) {
      // Move-only drift shows as a planned change, except in refresh-only mode.
      if (d.change.action !== "NoOp" || plan.uiMode === "refresh-only") this.resourceDrift(d);
    }
    const cs: ChangeSummary = { add: 0, change: 0, import: 0, remove: 0, forget: 0, operation: "plan" };
    for (const c of plan.changes.resources) {
      if (c.change.action === "Delete" && c.addr.resource.resource.mode === "data") continue;
      if (c.change.importing) cs.import++;
      switch (c.change.action) {
        case "Create":
          cs.add++;
          break;
        case "Delete":
          cs.remove++;
          break;
        case "Update":
          cs.change++;
          break;
        case "CreateThenDelete":
        case "DeleteThenCreate":
          cs.add++;
          cs.remove++;
          break;
        case "Forget":
          cs.forget++;
          break;
        case "ForgetThenCreate":
          cs.add++;
          cs.forget++;
          break;
        default:
          break;
      }
      if (c.change.action !== "NoOp" || !c.addr.equal(c.prevRunAddr) || c.change.importing) this.plannedChange(c);
    }
    this.changeSummary(cs);
    const outs = new Map<string, JSONish>();
    for (const o of plan.changes.outputs) {
      if (!o.addr.module.isRoot()) continue;
      outs.set(o.addr.outputValue.name, { sensitive: o.sensitive, action: changeActionJSON(o.change.action) });
    }
    if (outs.size > 0) this.outputs(outs);
  }

  /** Applying a saved plan: its changes, without a summary (local backend's opApply). */
  plannedChanges(plan: Plan): void {
    for (const c of plan.changes.resources) {
      if (c.change.action === "NoOp") continue;
      if (c.change.action === "Delete" && c.addr.resource.resource.mode === "data") continue;
      this.plannedChange(c);
    }
  }

  /** json.OutputsFromMap: the state's root outputs with their types; sensitive values left out. */
  stateOutputs(state: State): void {
    const outs = new Map<string, JSONish>();
    for (const o of state.rootModule().outputValues.values()) outs.set(o.name, outputFromState(o));
    this.outputs(outs);
  }
}

function outputFromState(o: OutputValue): JSONish {
  const [plain] = unmarkDeep(o.value);
  const value = marshalJSON(plain, plain.type);
  return {
    sensitive: o.sensitive,
    type: new RawJSON(goStringEscapes(marshalType(plain.type))),
    value: o.sensitive || !value.ok ? undefined : new RawJSON(goStringEscapes(value.value)),
  };
}

interface Applying {
  readonly action: Action;
  readonly start: number;
  readonly timer: ReturnType<typeof setInterval> | undefined;
}

/**
 * The jsonHook and countHook of tofu's JSON views: refresh_start/complete, apply_start, a
 * heartbeat apply_progress every 10 s, apply_complete or apply_errored, ephemeral_action_started
 * and ephemeral_action_complete; counts for the summary.
 */
export class JSONHooks implements Hooks {
  added = 0;
  changed = 0;
  removed = 0;
  imported = 0;
  forgotten = 0;
  private readonly applying = new Map<string, Applying>();

  constructor(
    private readonly view: JSONView,
    private readonly clock: { now(): number; heartbeatMs: number } = { now: () => Date.now(), heartbeatMs: HEARTBEAT_INTERVAL_MS },
    /** -show-sensitive: provisioner output hidden for a sensitive configuration is shown. */
    private readonly showSensitive = false,
  ) {}

  /** Times start on whole seconds, as jsonHook rounds them. */
  private seconds(): number {
    return Math.round(this.clock.now() / 1000);
  }

  preRefresh(addr: AbsResourceInstance, _deposed: string, prior: Value): void {
    const [k, v] = objectValueID(prior);
    const id = k !== "" && v !== "" ? ` [${k}=${v}]` : "";
    this.view.hook("refresh_start", `${addr.toString()}: Refreshing state...${id}`, { resource: resourceAddrJSON(addr), id_key: k || undefined, id_value: v || undefined });
  }

  postRefresh(addr: AbsResourceInstance, _deposed: string, _prior: Value, newState: Value): void {
    const [k, v] = objectValueID(newState);
    const id = k !== "" && v !== "" ? ` [${k}=${v}]` : "";
    this.view.hook("refresh_complete", `${addr.toString()}: Refresh complete${id}`, { resource: resourceAddrJSON(addr), id_key: k || undefined, id_value: v || undefined });
  }

  preApply(addr: AbsResourceInstance, _deposed: string, action: Action, prior: Value): void {
    const key = addr.toString();
    if (action !== "NoOp") {
      const [k, v] = objectValueIDOrName(prior);
      const id = k !== "" && v !== "" ? ` [${k}=${v}]` : "";
      this.view.hook("apply_start", `${key}: ${startVerb(action)}...${id}`, {
        resource: resourceAddrJSON(addr),
        action: changeActionJSON(action),
        id_key: k || undefined,
        id_value: v || undefined,
      });
    }
    const start = this.seconds();
    const timer =
      action === "NoOp"
        ? undefined
        : setInterval(() => {
            const elapsed = this.seconds() - start;
            this.view.hook("apply_progress", `${key}: Still ${startVerb(action).toLowerCase()}... [${goDuration(elapsed)} elapsed]`, {
              resource: resourceAddrJSON(addr),
              action: changeActionJSON(action),
              elapsed_seconds: elapsed,
            });
          }, this.clock.heartbeatMs);
    // A heartbeat never keeps the process alive on its own.
    timer?.unref();
    this.applying.set(key, { action, start, timer });
  }

  postApply(addr: AbsResourceInstance, _deposed: string, action: Action, newState: Value, failed: boolean): void {
    const key = addr.toString();
    const a = this.applying.get(key);
    if (a?.timer) clearInterval(a.timer);
    this.applying.delete(key);
    if (action === "NoOp") return;
    const elapsed = this.seconds() - (a?.start ?? this.seconds());
    const resource = resourceAddrJSON(addr);
    if (failed) {
      this.view.hook("apply_errored", `${key}: ${actionNoun(action)} errored after ${goDuration(elapsed)}`, { resource, action: changeActionJSON(action), elapsed_seconds: elapsed });
      return;
    }
    countApplied(this, action);
    const [k, v] = objectValueID(newState);
    const id = k !== "" && v !== "" ? ` [${k}=${v}]` : "";
    this.view.hook("apply_complete", `${key}: ${actionNoun(action)} complete after ${goDuration(elapsed)}${id}`, {
      resource,
      action: changeActionJSON(action),
      id_key: k || undefined,
      id_value: v || undefined,
      elapsed_seconds: elapsed,
    });
  }

  postApplyImport(): void {
    this.imported++;
  }

  /** Counted for the change summary; no message of its own (tofu's jsonHook has none). */
  postApplyForget(): void {
    this.forgotten++;
  }

  preProvisionInstanceStep(addr: AbsResourceInstance, typeName: string): void {
    this.view.hook("provision_start", `${addr.toString()}: Provisioning with '${typeName}'...`, { resource: resourceAddrJSON(addr), provisioner: typeName });
  }

  provisionOutput(addr: AbsResourceInstance, typeName: string, line: string, sensitiveLine?: string): void {
    const shown = this.showSensitive && sensitiveLine !== undefined ? sensitiveLine : line;
    // Blank lines are dropped and trailing space trimmed, as jsonHook scans the output.
    const text = shown.replace(/\s+$/u, "");
    if (text === "") return;
    this.view.hook("provision_progress", `${addr.toString()}: (${typeName}): ${text}`, { resource: resourceAddrJSON(addr), provisioner: typeName, output: text });
  }

  postProvisionInstanceStep(addr: AbsResourceInstance, typeName: string, failed: boolean): void {
    const what = failed ? ["provision_errored", "Provisioning errored"] : ["provision_complete", "Provisioning complete"];
    this.view.hook(what[0] as string, `${addr.toString()}: (${typeName}) ${what[1] as string}`, { resource: resourceAddrJSON(addr), provisioner: typeName });
  }

  // Ephemeral resources (tofu's jsonHook PreOpen … PostClose): a started and a complete message
  // per step, with the step's words in the payload's "Msg" (a Go field without a json tag) and
  // no elapsed time. Deferrals have no JSON message.
  preOpen(addr: AbsResourceInstance): void {
    this.ephemeral("ephemeral_action_started", addr, "Opening...");
  }

  postOpen(addr: AbsResourceInstance): void {
    this.ephemeral("ephemeral_action_complete", addr, "Open complete");
  }

  preRenew(addr: AbsResourceInstance): void {
    this.ephemeral("ephemeral_action_started", addr, "Renewing...");
  }

  postRenew(addr: AbsResourceInstance): void {
    this.ephemeral("ephemeral_action_complete", addr, "Renew complete");
  }

  preClose(addr: AbsResourceInstance): void {
    this.ephemeral("ephemeral_action_started", addr, "Closing...");
  }

  postClose(addr: AbsResourceInstance): void {
    this.ephemeral("ephemeral_action_complete", addr, "Close complete");
  }

  private ephemeral(type: string, addr: AbsResourceInstance, msg: string): void {
    this.view.hook(type, `${addr.toString()}: ${msg}`, { resource: resourceAddrJSON(addr), Msg: msg });
  }

  /** Stops any heartbeat still running (an apply that ended without every PostApply). */
  close(): void {
    for (const a of this.applying.values()) if (a.timer) clearInterval(a.timer);
    this.applying.clear();
  }
}

/** countHook: what "Apply complete!" counts. */
export function countApplied(counts: { added: number; changed: number; removed: number }, action: Action): void {
  switch (action) {
    case "Create":
      counts.added++;
      break;
    case "Update":
      counts.changed++;
      break;
    case "Delete":
      counts.removed++;
      break;
    case "CreateThenDelete":
    case "DeleteThenCreate":
      counts.added++;
      counts.removed++;
      break;
    default:
      break;
  }
}

function startVerb(a: Action): string {
  switch (a) {
    case "Create":
      return "Creating";
    case "Update":
      return "Modifying";
    case "Delete":
      return "Destroying";
    case "Read":
      return "Refreshing";
    case "CreateThenDelete":
    case "DeleteThenCreate":
      return "Replacing";
    case "Forget":
      return "Removing";
    default:
      return "Applying";
  }
}

function actionNoun(a: Action): string {
  switch (a) {
    case "Create":
      return "Creation";
    case "Update":
      return "Modifications";
    case "Delete":
      return "Destruction";
    case "Read":
      return "Refresh";
    case "CreateThenDelete":
    case "DeleteThenCreate":
      return "Replacement";
    case "Forget":
      return "Removal";
    default:
      return "Apply";
  }
}

/** The `-json` form of plan, apply, destroy and refresh (PlanJSON, ApplyJSON, RefreshJSON). */
export class JSONOperationView implements OperationView {
  readonly json = true;
  readonly jv: JSONView;
  readonly hooks: JSONHooks;

  /** Starts the stream with its version message, as NewJSONView does. */
  constructor(
    readonly view: View,
    version: string,
    options: { readonly showSensitive?: boolean; readonly now?: () => Date } = {},
  ) {
    this.jv = new JSONView(view, version, options.now);
    this.hooks = new JSONHooks(this.jv, undefined, options.showSensitive ?? false);
    this.jv.versionMessage();
  }

  diagnostics(diags: readonly Diagnostic[]): void {
    this.jv.diagnostics(diags);
  }

  helpPrompt(): void {}

  plan(plan: Plan): Diagnostic[] {
    this.jv.plan(plan);
    return [];
  }

  planNextStep(): void {}

  plannedChanges(plan: Plan): void {
    this.jv.plannedChanges(plan);
  }

  resourceCount(destroyCmd: boolean): void {
    const h = this.hooks;
    this.jv.changeSummary({ add: h.added, change: h.changed, import: h.imported, remove: h.removed, forget: h.forgotten, operation: destroyCmd ? "destroy" : "apply" });
  }

  outputs(state: State): void {
    this.jv.stateOutputs(state);
  }

  walkDone(): void {
    this.hooks.close();
  }

  stateLocking(message: string): void {
    this.jv.log(message);
  }
}
