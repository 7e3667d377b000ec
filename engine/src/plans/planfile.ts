// The saved plan file (`plan -out`), after OpenTofu's planfile package: a zip holding the plan,
// the prior and previous-run state snapshots, a snapshot of every module's source files and the
// dependency lock file. OpenTofu's `tfplan` entry is protobuf; ours is JSON (format
// "terrace-plan" with a version), with values as msgpack (base64) and marks as paths — the same
// information OpenTofu's DynamicValue + marks carry. Bytes in, bytes out: no file system here.
import { strFromU8, strToU8, unzipSync, zipSync, type Unzipped } from "fflate";
import {
  intKey,
  parseAbsOutputValueStr,
  parseAbsProviderConfigStr,
  parseAbsResourceInstanceStr,
  parseTargetStr,
  stringKey,
  NoKey,
  type AbsResourceInstance,
  type InstanceKey,
  type Targetable,
} from "../addrs/index.js";
import type { Diagnostic } from "../hcl/index.js";
import { newFile, readStateFile, writeStateFile, State, type CheckResults } from "../states/model.js";
import {
  DynamicPseudoType,
  SENSITIVE,
  formatPathError,
  marshalJSON,
  marshalMsgpack,
  markWithPaths,
  unmarkDeepWithPaths,
  unmarshalJSON,
  unmarshalMsgpack,
  type Path,
  type PathStep,
  type Value,
} from "../values/index.js";
import { ALL_ACTIONS, type Action, type ActionReason } from "./action.js";
import type { Change, OutputChange, ResourceInstanceChange } from "./changes.js";
import { newPlan, type Plan, type UIMode } from "./plan.js";

export const PLAN_FILE_FORMAT = "terrace-plan";
export const PLAN_FILE_VERSION = 1;

export const TFPLAN_FILENAME = "tfplan";
export const TFSTATE_FILENAME = "tfstate";
export const TFSTATE_PREV_FILENAME = "tfstate-prev";
export const DEPENDENCY_LOCKS_FILENAME = ".terraform.lock.hcl";
export const CONFIG_SNAPSHOT_PREFIX = "tfconfig/";
export const CONFIG_SNAPSHOT_MANIFEST = "tfconfig/modules.json";

/** One module's source files, as OpenTofu's configload.SnapshotModule. */
export interface SnapshotModule {
  /** The module's key in the manifest ("" for the root, "child", "child.grandchild"). */
  key: string;
  /** Its directory, relative to the working directory. */
  dir: string;
  sourceAddr: string;
  version: string;
  files: Map<string, Uint8Array>;
}

export interface ConfigSnapshot {
  modules: SnapshotModule[];
}

export interface PlanFileContents {
  plan: Plan;
  config: ConfigSnapshot;
  /**
   * Lineage and serial of the state snapshot the plan was made from, written into the plan's
   * state files (as tofu does) so that applying it can refuse a state that changed since.
   */
  priorStateMeta?: { lineage: string; serial: number };
  /** The `.terraform.lock.hcl` text, if there was one. */
  dependencyLocks?: Uint8Array;
}

export type PlanFileReadResult = { ok: true; contents: PlanFileContents; diagnostics: Diagnostic[] } | { ok: false; diagnostics: Diagnostic[] };

function err(summary: string, detail: string): Diagnostic {
  return { severity: "error", summary, detail };
}

// ---------------------------------------------------------------------------------------------
// Encoding

type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

function b64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function unb64(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

class EncodeError extends Error {}

function encodePathSteps(p: Path): JsonValue {
  return p.map((s): JsonValue => {
    if (s.kind === "attr") return { a: s.name };
    const j = marshalJSON(s.key, DynamicPseudoType);
    if (!j.ok) throw new EncodeError(formatPathError(j.error));
    return { i: j.value };
  });
}

function decodePathSteps(v: unknown): Path {
  if (!Array.isArray(v)) throw new EncodeError("path is not an array");
  return v.map((s: unknown): PathStep => {
    const o = s as { a?: unknown; i?: unknown };
    if (typeof o.a === "string") return { kind: "attr", name: o.a };
    if (typeof o.i === "string") {
      const k = unmarshalJSON(o.i, DynamicPseudoType);
      if (!k.ok) throw new EncodeError(formatPathError(k.error));
      return { kind: "index", key: k.value };
    }
    throw new EncodeError("invalid path step");
  });
}

/** A value as msgpack (dynamic, so its type travels along) and its sensitive paths. */
function encodeValue(v: Value): JsonValue {
  const [plain, pvm] = unmarkDeepWithPaths(v);
  const mp = marshalMsgpack(plain, DynamicPseudoType);
  if (!mp.ok) throw new EncodeError(formatPathError(mp.error));
  const marks = pvm.filter((m) => m.marks.has(SENSITIVE)).map((m) => encodePathSteps(m.path));
  return marks.length > 0 ? { v: b64(mp.value), s: marks } : { v: b64(mp.value) };
}

function decodeValue(x: unknown): Value {
  const o = x as { v?: unknown; s?: unknown };
  if (typeof o?.v !== "string") throw new EncodeError("invalid value");
  const r = unmarshalMsgpack(unb64(o.v), DynamicPseudoType);
  if (!r.ok) throw new EncodeError(formatPathError(r.error));
  const paths = Array.isArray(o.s) ? o.s.map(decodePathSteps) : [];
  const marks = new Set([SENSITIVE]);
  return markWithPaths(r.value, paths.map((path) => ({ path, marks })));
}

function encodeKey(k: InstanceKey): JsonValue {
  return k.kind === "IntKey" ? k.value : k.kind === "StringKey" ? k.value : null;
}

function decodeKey(v: unknown): InstanceKey {
  if (typeof v === "number") return intKey(v);
  if (typeof v === "string") return stringKey(v);
  return NoKey;
}

function encodeChange(c: Change): JsonValue {
  const o: { [k: string]: JsonValue } = { action: c.action, before: encodeValue(c.before), after: encodeValue(c.after) };
  if (c.importing) o["importing"] = { id: c.importing.id };
  if (c.generatedConfig) o["generated_config"] = c.generatedConfig;
  return o;
}

function decodeChange(x: unknown): Change {
  const o = x as { action?: unknown; before?: unknown; after?: unknown; importing?: { id?: unknown }; generated_config?: unknown };
  if (typeof o.action !== "string" || !ALL_ACTIONS.includes(o.action as Action)) throw new EncodeError(`invalid action ${String(o.action)}`);
  const c: Change = { action: o.action as Action, before: decodeValue(o.before), after: decodeValue(o.after), generatedConfig: typeof o.generated_config === "string" ? o.generated_config : "" };
  if (o.importing) c.importing = { id: typeof o.importing.id === "string" ? o.importing.id : "" };
  return c;
}

function encodeRC(rc: ResourceInstanceChange): JsonValue {
  const o: { [k: string]: JsonValue } = {
    addr: rc.addr.toString(),
    prev_run_addr: rc.prevRunAddr.toString(),
    deposed_key: rc.deposedKey,
    provider: rc.providerAddr.toString(),
    provider_key: encodeKey(rc.providerKey),
    change: encodeChange(rc.change),
    action_reason: rc.actionReason,
    required_replace: rc.requiredReplace.map(encodePathSteps),
  };
  if (rc.private) o["private"] = b64(rc.private);
  return o;
}

function parseOr<T>(what: string, s: unknown, parse: (s: string) => { result: T | undefined; diagnostics: Diagnostic[] }): T {
  if (typeof s !== "string") throw new EncodeError(`missing ${what}`);
  const r = parse(s);
  if (!r.result || r.diagnostics.some((d) => d.severity === "error")) throw new EncodeError(`invalid ${what} ${JSON.stringify(s)}`);
  return r.result;
}

function decodeRC(x: unknown): ResourceInstanceChange {
  const o = x as { [k: string]: unknown };
  const rc: ResourceInstanceChange = {
    addr: parseOr("resource instance address", o["addr"], parseAbsResourceInstanceStr),
    prevRunAddr: parseOr("resource instance address", o["prev_run_addr"], parseAbsResourceInstanceStr),
    deposedKey: typeof o["deposed_key"] === "string" ? o["deposed_key"] : "",
    providerAddr: parseOr("provider address", o["provider"], parseAbsProviderConfigStr),
    providerKey: decodeKey(o["provider_key"]),
    change: decodeChange(o["change"]),
    actionReason: (typeof o["action_reason"] === "string" ? o["action_reason"] : "None") as ActionReason,
    requiredReplace: Array.isArray(o["required_replace"]) ? o["required_replace"].map(decodePathSteps) : [],
  };
  if (typeof o["private"] === "string") rc.private = unb64(o["private"]);
  return rc;
}

function encodeOC(oc: OutputChange): JsonValue {
  return { addr: oc.addr.toString(), sensitive: oc.sensitive, change: encodeChange(oc.change) };
}

function decodeOC(x: unknown): OutputChange {
  const o = x as { [k: string]: unknown };
  return { addr: parseOr("output address", o["addr"], parseAbsOutputValueStr), sensitive: o["sensitive"] === true, change: decodeChange(o["change"]) };
}

function encodePlan(p: Plan): string {
  const doc: { [k: string]: JsonValue } = {
    format: PLAN_FILE_FORMAT,
    version: PLAN_FILE_VERSION,
    ui_mode: p.uiMode,
    variables: Object.fromEntries([...p.variableValues].map(([k, v]) => [k, encodeValue(v)])),
    resource_changes: p.changes.resources.map(encodeRC),
    output_changes: p.changes.outputs.map(encodeOC),
    resource_drift: p.driftedResources.map(encodeRC),
    relevant_attributes: p.relevantAttributes.map((ra) => ({ resource: ra.resource.toString(), attr: encodePathSteps(ra.attr) })),
    checks: p.checks ? (JSON.parse(JSON.stringify(p.checks)) as JsonValue) : null,
    timestamp: p.timestamp.toISOString(),
    target_addrs: p.targetAddrs.map((t) => t.toString()),
    exclude_addrs: p.excludeAddrs.map((t) => t.toString()),
    force_replace_addrs: p.forceReplaceAddrs.map((t) => t.toString()),
    backend: p.backend ? { type: p.backend.type, config: encodeValue(p.backend.config), workspace: p.backend.workspace } : null,
    applyable: p.applyable,
    complete: p.complete,
    errored: p.errored,
  };
  return JSON.stringify(doc);
}

const TARGET = (s: string): { result: Targetable | undefined; diagnostics: Diagnostic[] } => {
  const r = parseTargetStr(s);
  return { result: r.result?.subject, diagnostics: r.diagnostics };
};

function decodePlan(text: string, prior: State, prev: State): { plan?: Plan; diagnostics: Diagnostic[] } {
  let doc: { [k: string]: unknown };
  try {
    doc = JSON.parse(text) as { [k: string]: unknown };
  } catch (e) {
    return { diagnostics: [err("Invalid plan file", `The plan file's ${TFPLAN_FILENAME} entry is not valid JSON: ${(e as Error).message}.`)] };
  }
  if (doc["format"] !== PLAN_FILE_FORMAT) {
    return {
      diagnostics: [
        err(
          "Unsupported plan file",
          "The given plan file was not created by Terrace. Saved plans from OpenTofu or Terraform use a different internal format; create a new plan with this program.",
        ),
      ],
    };
  }
  if (doc["version"] !== PLAN_FILE_VERSION) {
    return {
      diagnostics: [
        err(
          "Saved plan is incompatible",
          `The given plan file uses plan file format version ${String(doc["version"])}, but this version of Terrace only supports version ${PLAN_FILE_VERSION}. Create a new plan with this version of Terrace.`,
        ),
      ],
    };
  }
  try {
    const arr = (k: string): unknown[] => (Array.isArray(doc[k]) ? (doc[k] as unknown[]) : []);
    const vars = new Map<string, Value>();
    const rawVars = doc["variables"];
    if (rawVars && typeof rawVars === "object") for (const [k, v] of Object.entries(rawVars)) vars.set(k, decodeValue(v));
    const backend = doc["backend"] as { type?: unknown; config?: unknown; workspace?: unknown } | null;
    const plan = newPlan({
      uiMode: doc["ui_mode"] as UIMode,
      variableValues: vars,
      changes: { resources: arr("resource_changes").map(decodeRC), outputs: arr("output_changes").map(decodeOC) },
      driftedResources: arr("resource_drift").map(decodeRC),
      relevantAttributes: arr("relevant_attributes").map((x) => {
        const o = x as { resource?: unknown; attr?: unknown };
        return { resource: parseOr("resource instance address", o.resource, parseAbsResourceInstanceStr), attr: decodePathSteps(o.attr) };
      }),
      priorState: prior,
      prevRunState: prev,
      checks: (doc["checks"] ?? undefined) as CheckResults | undefined,
      timestamp: new Date(typeof doc["timestamp"] === "string" ? doc["timestamp"] : 0),
      targetAddrs: arr("target_addrs").map((s) => parseOr("target address", s, TARGET)),
      excludeAddrs: arr("exclude_addrs").map((s) => parseOr("target address", s, TARGET)),
      forceReplaceAddrs: arr("force_replace_addrs").map((s) => parseOr("resource instance address", s, parseAbsResourceInstanceStr)) as AbsResourceInstance[],
      backend: backend
        ? { type: String(backend.type ?? ""), config: decodeValue(backend.config), workspace: String(backend.workspace ?? "default") }
        : undefined,
      applyable: doc["applyable"] === true,
      complete: doc["complete"] === true,
      errored: doc["errored"] === true,
    });
    return { plan, diagnostics: [] };
  } catch (e) {
    if (e instanceof EncodeError) return { diagnostics: [err("Invalid plan file", `Failed to read the plan from the plan file: ${e.message}.`)] };
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// Zip

export interface WritePlanFileOptions {
  /** The version written into the state snapshots' terraform_version. */
  tofuVersion: string;
}

export type PlanFileWriteResult = { ok: true; bytes: Uint8Array; diagnostics: Diagnostic[] } | { ok: false; diagnostics: Diagnostic[] };

/** planfile.Create: the zip written by `plan -out`. Entries have a fixed timestamp for reproducible bytes. */
export function writePlanFile(contents: PlanFileContents, opts: WritePlanFileOptions): PlanFileWriteResult {
  const diagnostics: Diagnostic[] = [];
  let planText: string;
  try {
    planText = encodePlan(contents.plan);
  } catch (e) {
    if (e instanceof EncodeError) return { ok: false, diagnostics: [err("Failed to write plan file", e.message)] };
    throw e;
  }
  const mtime = new Date(Date.UTC(1980, 0, 1));
  const entries: Record<string, [Uint8Array, { mtime: Date }]> = {};
  const put = (name: string, data: Uint8Array): void => {
    entries[name] = [data, { mtime }];
  };
  put(TFPLAN_FILENAME, strToU8(planText));
  for (const [name, state] of [
    [TFSTATE_FILENAME, contents.plan.priorState],
    [TFSTATE_PREV_FILENAME, contents.plan.prevRunState],
  ] as const) {
    const meta = contents.priorStateMeta ?? { lineage: "", serial: 0 };
    const w = writeStateFile(newFile(state, meta.lineage, meta.serial, opts.tofuVersion), { terraformVersion: opts.tofuVersion });
    if (!w.ok) return { ok: false, diagnostics: [...diagnostics, ...w.diagnostics] };
    put(name, w.bytes);
  }
  const manifest = contents.config.modules.map((m) => ({ Key: m.key, Dir: m.dir, SourceAddr: m.sourceAddr, Version: m.version }));
  put(CONFIG_SNAPSHOT_MANIFEST, strToU8(JSON.stringify({ Modules: manifest })));
  for (const m of contents.config.modules) {
    for (const [name, data] of m.files) put(`${CONFIG_SNAPSHOT_PREFIX}m-${m.key}/${name}`, data);
  }
  if (contents.dependencyLocks) put(DEPENDENCY_LOCKS_FILENAME, contents.dependencyLocks);
  return { ok: true, bytes: zipSync(entries), diagnostics };
}

/** planfile.Open + ReadPlan + ReadStateFile + ReadConfigSnapshot, with diagnostics instead of errors. */
export function readPlanFile(bytes: Uint8Array): PlanFileReadResult {
  let files: Unzipped;
  try {
    files = unzipSync(bytes);
  } catch {
    return {
      ok: false,
      diagnostics: [err("Failed to read plan file", "The given file is not a saved plan: it is not a zip archive. A saved plan is the file written by the plan command's -out option.")],
    };
  }
  const planBytes = files[TFPLAN_FILENAME];
  if (!planBytes) {
    return { ok: false, diagnostics: [err("Failed to read plan file", `The given file is a zip archive but has no ${TFPLAN_FILENAME} entry, so it is not a saved plan.`)] };
  }
  const states: State[] = [];
  let priorStateMeta: { lineage: string; serial: number } = { lineage: "", serial: 0 };
  for (const name of [TFSTATE_FILENAME, TFSTATE_PREV_FILENAME]) {
    const b = files[name];
    if (!b) {
      states.push(new State());
      continue;
    }
    const r = readStateFile(b);
    if (r.kind === "error") return { ok: false, diagnostics: r.diagnostics };
    states.push(r.kind === "ok" ? r.file.state : new State());
    if (name === TFSTATE_FILENAME && r.kind === "ok") priorStateMeta = { lineage: r.file.lineage, serial: r.file.serial };
  }
  const decoded = decodePlan(strFromU8(planBytes), states[0] as State, states[1] as State);
  if (!decoded.plan) return { ok: false, diagnostics: decoded.diagnostics };
  const modules: SnapshotModule[] = [];
  const manifestBytes = files[CONFIG_SNAPSHOT_MANIFEST];
  if (manifestBytes) {
    let manifest: { Modules?: Array<{ Key?: string; Dir?: string; SourceAddr?: string; Version?: string }> };
    try {
      manifest = JSON.parse(strFromU8(manifestBytes)) as typeof manifest;
    } catch {
      return { ok: false, diagnostics: [err("Failed to read plan file", "The configuration snapshot's module manifest is not valid JSON.")] };
    }
    for (const m of manifest.Modules ?? []) {
      const key = m.Key ?? "";
      const prefix = `${CONFIG_SNAPSHOT_PREFIX}m-${key}/`;
      const fm = new Map<string, Uint8Array>();
      for (const [name, data] of Object.entries(files)) if (name.startsWith(prefix)) fm.set(name.slice(prefix.length), data);
      modules.push({ key, dir: m.Dir ?? "", sourceAddr: m.SourceAddr ?? "", version: m.Version ?? "", files: fm });
    }
  }
  const contents: PlanFileContents = { plan: decoded.plan, config: { modules }, priorStateMeta };
  const locks = files[DEPENDENCY_LOCKS_FILENAME];
  if (locks) contents.dependencyLocks = locks;
  return { ok: true, contents, diagnostics: decoded.diagnostics };
}
