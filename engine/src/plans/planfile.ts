// The saved plan file (`plan -out`), after OpenTofu's planfile package: a zip holding the plan
// (`tfplan`, OpenTofu's protobuf format: ./planproto.ts), the prior and previous-run state
// snapshots, a snapshot of every module's source files and the dependency lock file, so that
// OpenTofu and Terraform read the plans Terrace writes and Terrace reads theirs. Terrace adds one
// entry they skip (PlanNotes). Bytes in, bytes out: no file system here.
import { strFromU8, strToU8, unzipSync, zipSync, type Unzipped } from "fflate";
import { intKey, stringKey, type Provider } from "../addrs/index.js";
import type { Diagnostic } from "../hcl/index.js";
import { newFile, readStateFile, writeStateFile, State } from "../states/model.js";
import { typeFromJSON, typeToJSON, type Type } from "../values/index.js";
import type { ActionReason } from "./action.js";
import type { ResourceInstanceChange } from "./changes.js";
import { newPlan, type Plan } from "./plan.js";
import { TfplanError, TfplanMissingSchema, decodeTfplan, encodeTfplan, tfplanProviders, tfplanReason, type DecodedTfplan, type ResourceTypeLookup } from "./planproto.js";

export const TFPLAN_FILENAME = "tfplan";
/** Terrace's notes beside `tfplan` (PlanNotes), which OpenTofu and Terraform skip. */
export const PLAN_NOTES_FILENAME = "terrace-plan-notes.json";
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
  /** The program version the plan says wrote it (terraform_version), when read from a file. */
  writtenBy?: string;
}

export type PlanFileReadResult =
  | { ok: true; contents: PlanFileContents; diagnostics: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[]; /** Providers whose schemas would let the plan be read. */ providers?: Provider[] };

function err(summary: string, detail: string): Diagnostic {
  return { severity: "error", summary, detail };
}

// ---------------------------------------------------------------------------------------------
// Terrace's notes beside the plan

/**
 * What `tfplan` does not record and Terrace keeps in its own zip entry, which OpenTofu and
 * Terraform skip: the implied type of every resource type a change uses (so reading the plan
 * needs no provider), the provider instance of each change (provider `for_each`), and the action
 * reasons the format has no number for.
 */
interface PlanNotes {
  format: typeof NOTES_FORMAT;
  version: typeof NOTES_VERSION;
  resource_types: Array<{ provider: string; mode: string; type: string; implied_type: unknown }>;
  provider_keys: { resource_changes: Record<string, string | number>; resource_drift: Record<string, string | number> };
  action_reasons: { resource_changes: Record<string, string>; resource_drift: Record<string, string> };
}

const NOTES_FORMAT = "terrace-plan-notes";
const NOTES_VERSION = 1;

const changeKey = (rc: ResourceInstanceChange): string => `${rc.addr.toString()}|${rc.deposedKey}`;
const typeKey = (provider: string, mode: string, type: string): string => `${provider}|${mode}|${type}`;

function planNotes(plan: Plan, types: ResourceTypeLookup): PlanNotes {
  const notes: PlanNotes = {
    format: NOTES_FORMAT,
    version: NOTES_VERSION,
    resource_types: [],
    provider_keys: { resource_changes: {}, resource_drift: {} },
    action_reasons: { resource_changes: {}, resource_drift: {} },
  };
  const seen = new Set<string>();
  for (const [list, changes] of [
    ["resource_changes", plan.changes.resources],
    ["resource_drift", plan.driftedResources],
  ] as const) {
    for (const rc of changes) {
      const res = rc.addr.resource.resource;
      const provider = rc.providerAddr.provider.toString();
      const tk = typeKey(provider, res.mode, res.type);
      const t = types(rc.providerAddr.provider, res.mode, res.type);
      if (t && !seen.has(tk)) {
        seen.add(tk);
        notes.resource_types.push({ provider, mode: res.mode, type: res.type, implied_type: typeToJSON(t) });
      }
      if (rc.providerKey.kind === "IntKey" || rc.providerKey.kind === "StringKey") notes.provider_keys[list][changeKey(rc)] = rc.providerKey.value;
      if (!tfplanReason(rc.actionReason)) notes.action_reasons[list][changeKey(rc)] = rc.actionReason;
    }
  }
  return notes;
}

/** The notes as written, or undefined when the plan was written by OpenTofu or Terraform. */
function readNotes(bytes: Uint8Array | undefined): PlanNotes | undefined {
  if (!bytes) return undefined;
  try {
    const n = JSON.parse(strFromU8(bytes)) as Partial<PlanNotes>;
    if (n.format !== NOTES_FORMAT || n.version !== NOTES_VERSION) return undefined;
    return n as PlanNotes;
  } catch {
    return undefined;
  }
}

/** Resource types from the notes first, then from the caller's schemas. */
function notedTypes(notes: PlanNotes | undefined, fallback: ResourceTypeLookup | undefined): ResourceTypeLookup {
  const noted = new Map<string, Type>();
  for (const t of notes?.resource_types ?? []) {
    const r = typeFromJSON(t.implied_type);
    if (r.ok) noted.set(typeKey(t.provider, t.mode, t.type), r.type);
  }
  return (provider, mode, type) => noted.get(typeKey(provider.toString(), mode, type)) ?? fallback?.(provider, mode, type);
}

function applyNotes(plan: Plan, notes: PlanNotes | undefined): void {
  if (!notes) return;
  for (const [list, changes] of [
    ["resource_changes", plan.changes.resources],
    ["resource_drift", plan.driftedResources],
  ] as const) {
    for (const rc of changes) {
      const key = notes.provider_keys?.[list]?.[changeKey(rc)];
      if (typeof key === "number") rc.providerKey = intKey(key);
      else if (typeof key === "string") rc.providerKey = stringKey(key);
      const reason = notes.action_reasons?.[list]?.[changeKey(rc)];
      if (typeof reason === "string") rc.actionReason = reason as ActionReason;
    }
  }
}

/** Without notes, a change to an object in the prior state uses the provider instance the state records for it. */
function providerKeysFromState(plan: Plan): void {
  for (const rc of [...plan.changes.resources, ...plan.driftedResources]) {
    if (rc.providerKey.kind !== "NoKey") continue;
    const is = plan.priorState.resourceInstance(rc.addr) ?? plan.prevRunState.resourceInstance(rc.prevRunAddr);
    if (is) rc.providerKey = is.providerKey;
  }
}

// ---------------------------------------------------------------------------------------------
// Zip

export interface WritePlanFileOptions {
  /** The version written into the plan and the state snapshots (terraform_version). */
  tofuVersion: string;
  /** The implied type of each resource type's schema, which the changes' values are encoded with. */
  resourceTypes: ResourceTypeLookup;
}

export type PlanFileWriteResult = { ok: true; bytes: Uint8Array; diagnostics: Diagnostic[] } | { ok: false; diagnostics: Diagnostic[] };

/** planfile.Create: the zip written by `plan -out`. Entries have a fixed timestamp for reproducible bytes. */
export function writePlanFile(contents: PlanFileContents, opts: WritePlanFileOptions): PlanFileWriteResult {
  const diagnostics: Diagnostic[] = [];
  let tfplan: Uint8Array;
  try {
    tfplan = encodeTfplan(contents.plan, opts.tofuVersion, opts.resourceTypes);
  } catch (e) {
    if (e instanceof TfplanError) return { ok: false, diagnostics: [err("Failed to write plan file", e.message)] };
    throw e;
  }
  const mtime = new Date(Date.UTC(1980, 0, 1));
  const entries: Record<string, [Uint8Array, { mtime: Date }]> = {};
  const put = (name: string, data: Uint8Array): void => {
    entries[name] = [data, { mtime }];
  };
  put(TFPLAN_FILENAME, tfplan);
  put(PLAN_NOTES_FILENAME, strToU8(JSON.stringify(planNotes(contents.plan, opts.resourceTypes))));
  for (const [name, state] of [
    [TFSTATE_FILENAME, contents.plan.priorState],
    [TFSTATE_PREV_FILENAME, contents.plan.prevRunState],
  ] as const) {
    const meta = contents.priorStateMeta ?? { lineage: "", serial: 0 };
    const w = writeStateFile(newFile(state, meta.lineage, meta.serial, opts.tofuVersion), { terraformVersion: opts.tofuVersion });
    if (!w.ok) return { ok: false, diagnostics: [...diagnostics, ...w.diagnostics] };
    put(name, w.bytes);
  }
  // OpenTofu's configSnapshotModuleManifest: an array of records, Source and Version left out when empty.
  const manifest = [...contents.config.modules]
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((m) => ({ Key: m.key, ...(m.sourceAddr ? { Source: m.sourceAddr } : {}), ...(m.version ? { Version: m.version } : {}), Dir: m.dir }));
  put(CONFIG_SNAPSHOT_MANIFEST, strToU8(JSON.stringify(manifest, null, 2)));
  for (const m of contents.config.modules) {
    for (const [name, data] of m.files) put(`${CONFIG_SNAPSHOT_PREFIX}m-${m.key}/${name}`, data);
  }
  if (contents.dependencyLocks) put(DEPENDENCY_LOCKS_FILENAME, contents.dependencyLocks);
  return { ok: true, bytes: zipSync(entries), diagnostics };
}

/**
 * planfile.Open + ReadPlan + ReadStateFile + ReadConfigSnapshot, with diagnostics instead of
 * errors. A plan OpenTofu or Terraform wrote needs its resource types' schemas (`resourceTypes`);
 * without them the result names the providers to ask (`providers`).
 */
export function readPlanFile(bytes: Uint8Array, resourceTypes?: ResourceTypeLookup): PlanFileReadResult {
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
  if (planBytes[0] === 0x7b) {
    // Terrace's own format before it wrote OpenTofu's.
    return { ok: false, diagnostics: [err("Saved plan is incompatible", "The given plan file was created by an earlier version of Terrace, in a format this version no longer reads. Create a new plan.")] };
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
  const notes = readNotes(files[PLAN_NOTES_FILENAME]);
  const types = notedTypes(notes, resourceTypes);
  let decoded: DecodedTfplan;
  try {
    decoded = decodeTfplan(planBytes, types);
  } catch (e) {
    if (!(e instanceof TfplanError)) throw e;
    // Only a missing schema is worth starting the providers for.
    const missing = e instanceof TfplanMissingSchema && !resourceTypes ? tfplanProviders(planBytes) : [];
    const out: PlanFileReadResult = { ok: false, diagnostics: [err("Invalid plan file", `Failed to read the plan from the plan file: ${e.message}.`)] };
    if (missing.length > 0) out.providers = missing;
    return out;
  }
  const plan = newPlan({ ...decoded.plan, priorState: states[0] as State, prevRunState: states[1] as State });
  if (notes) applyNotes(plan, notes);
  else providerKeysFromState(plan);
  const modules: SnapshotModule[] = [];
  const manifestBytes = files[CONFIG_SNAPSHOT_MANIFEST];
  if (manifestBytes) {
    let manifest: unknown;
    try {
      manifest = JSON.parse(strFromU8(manifestBytes));
    } catch {
      manifest = undefined;
    }
    if (!Array.isArray(manifest)) return { ok: false, diagnostics: [err("Failed to read plan file", "The configuration snapshot's module manifest is not a JSON array of modules.")] };
    for (const m of manifest as Array<{ Key?: unknown; Dir?: unknown; Source?: unknown; Version?: unknown }>) {
      const key = typeof m.Key === "string" ? m.Key : "";
      const prefix = `${CONFIG_SNAPSHOT_PREFIX}m-${key}/`;
      const fm = new Map<string, Uint8Array>();
      for (const [name, data] of Object.entries(files)) if (name.startsWith(prefix) && !name.slice(prefix.length).includes("/")) fm.set(name.slice(prefix.length), data);
      modules.push({ key, dir: typeof m.Dir === "string" ? m.Dir : "", sourceAddr: typeof m.Source === "string" ? m.Source : "", version: typeof m.Version === "string" ? m.Version : "", files: fm });
    }
  }
  const contents: PlanFileContents = { plan, config: { modules }, priorStateMeta, writtenBy: decoded.writtenBy };
  const locks = files[DEPENDENCY_LOCKS_FILENAME];
  if (locks) contents.dependencyLocks = locks;
  return { ok: true, contents, diagnostics: [] };
}
