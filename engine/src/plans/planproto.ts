// The `tfplan` entry of a saved plan: OpenTofu's protobuf message `tfplan.Plan`, format version
// 3 (plans/planfile/tfplan.go), so that OpenTofu and Terraform read the plans Terrace writes and
// Terrace reads theirs. Field numbers are OpenTofu's planfile.proto; Terraform's `applyable` (25)
// and `complete` (26), which OpenTofu does not declare and skips, are written too.
//
// A resource change's values are msgpack against the implied type of its resource type's schema,
// which the file does not record: writing and reading both need that type. Variables, outputs and
// path step keys carry their own types (dynamic msgpack, or a primitive's implied type).
import protobuf from "protobufjs/light.js";
import {
  NoKey,
  parseAbsOutputValueStr,
  parseAbsProviderConfigStr,
  parseAbsResourceInstanceStr,
  parseTargetStr,
  type AbsResourceInstance,
  type Provider,
  type ResourceMode,
  type Targetable,
} from "../addrs/index.js";
import type { Diagnostic } from "../hcl/index.js";
import type { CheckableKind, CheckResultAggregate, CheckResults, CheckStatus } from "../states/model.js";
import {
  DynamicPseudoType,
  SENSITIVE,
  formatPathError,
  markWithPaths,
  marshalMsgpack,
  msgpackImpliedType,
  nullVal,
  unmarkDeepWithPaths,
  unmarshalMsgpack,
  type Path,
  type PathStep,
  type Type,
  type Value,
} from "../values/index.js";
import type { Action, ActionReason } from "./action.js";
import type { Change, OutputChange, ResourceInstanceChange } from "./changes.js";
import type { Plan, PlanBackend, ResourceAttr, UIMode } from "./plan.js";

/** The version OpenTofu and Terraform 1.x write and accept. */
export const TFPLAN_FORMAT_VERSION = 3;

const DV = "DynamicValue";
const DESCRIPTOR: protobuf.INamespace = {
  nested: {
    tfplan: {
      nested: {
        Plan: {
          fields: {
            version: { type: "uint64", id: 1 },
            ui_mode: { type: "Mode", id: 17 },
            errored: { type: "bool", id: 20 },
            variables: { keyType: "string", type: DV, id: 2 } as protobuf.IMapField,
            resource_changes: { rule: "repeated", type: "ResourceInstanceChange", id: 3 },
            resource_drift: { rule: "repeated", type: "ResourceInstanceChange", id: 18 },
            output_changes: { rule: "repeated", type: "OutputChange", id: 4 },
            check_results: { rule: "repeated", type: "CheckResults", id: 19 },
            target_addrs: { rule: "repeated", type: "string", id: 5 },
            exclude_addrs: { rule: "repeated", type: "string", id: 6 },
            force_replace_addrs: { rule: "repeated", type: "string", id: 16 },
            terraform_version: { type: "string", id: 14 },
            backend: { type: "Backend", id: 13 },
            relevant_attributes: { rule: "repeated", type: "resource_attr", id: 15 },
            timestamp: { type: "string", id: 21 },
            ephemeral_variables: { rule: "repeated", type: "string", id: 22 },
            applyable: { type: "bool", id: 25 },
            complete: { type: "bool", id: 26 },
          },
          nested: { resource_attr: { fields: { resource: { type: "string", id: 1 }, attr: { type: "Path", id: 2 } } } },
        },
        Mode: { values: { NORMAL: 0, DESTROY: 1, REFRESH_ONLY: 2 } },
        Backend: { fields: { type: { type: "string", id: 1 }, config: { type: DV, id: 2 }, workspace: { type: "string", id: 3 } } },
        Action: { values: { NOOP: 0, CREATE: 1, READ: 2, UPDATE: 3, DELETE: 5, DELETE_THEN_CREATE: 6, CREATE_THEN_DELETE: 7, FORGET: 8, OPEN: 9, FORGET_THEN_CREATE: 10 } },
        Change: {
          fields: {
            action: { type: "Action", id: 1 },
            values: { rule: "repeated", type: DV, id: 2 },
            before_sensitive_paths: { rule: "repeated", type: "Path", id: 3 },
            after_sensitive_paths: { rule: "repeated", type: "Path", id: 4 },
            importing: { type: "Importing", id: 5 },
            generated_config: { type: "string", id: 6 },
          },
        },
        ResourceInstanceActionReason: {
          values: {
            NONE: 0,
            REPLACE_BECAUSE_TAINTED: 1,
            REPLACE_BY_REQUEST: 2,
            REPLACE_BECAUSE_CANNOT_UPDATE: 3,
            DELETE_BECAUSE_NO_RESOURCE_CONFIG: 4,
            DELETE_BECAUSE_WRONG_REPETITION: 5,
            DELETE_BECAUSE_COUNT_INDEX: 6,
            DELETE_BECAUSE_EACH_KEY: 7,
            DELETE_BECAUSE_NO_MODULE: 8,
            REPLACE_BY_TRIGGERS: 9,
            READ_BECAUSE_CONFIG_UNKNOWN: 10,
            READ_BECAUSE_DEPENDENCY_PENDING: 11,
            DELETE_BECAUSE_NO_MOVE_TARGET: 12,
            READ_BECAUSE_CHECK_NESTED: 13,
            DELETE_BECAUSE_ENABLED_FALSE: 14,
          },
        },
        ResourceInstanceChange: {
          fields: {
            addr: { type: "string", id: 13 },
            prev_run_addr: { type: "string", id: 14 },
            deposed_key: { type: "string", id: 7 },
            provider: { type: "string", id: 8 },
            change: { type: "Change", id: 9 },
            private: { type: "bytes", id: 10 },
            required_replace: { rule: "repeated", type: "Path", id: 11 },
            action_reason: { type: "ResourceInstanceActionReason", id: 12 },
          },
        },
        OutputChange: { fields: { name: { type: "string", id: 1 }, change: { type: "Change", id: 2 }, sensitive: { type: "bool", id: 3 } } },
        CheckResults: {
          fields: {
            kind: { type: "ObjectKind", id: 1 },
            config_addr: { type: "string", id: 2 },
            status: { type: "Status", id: 3 },
            objects: { rule: "repeated", type: "ObjectResult", id: 4 },
          },
          nested: {
            Status: { values: { UNKNOWN: 0, PASS: 1, FAIL: 2, ERROR: 3 } },
            ObjectKind: { values: { UNSPECIFIED: 0, RESOURCE: 1, OUTPUT_VALUE: 2, CHECK: 3, INPUT_VARIABLE: 4 } },
            ObjectResult: {
              fields: { object_addr: { type: "string", id: 1 }, status: { type: "Status", id: 2 }, failure_messages: { rule: "repeated", type: "string", id: 3 } },
            },
          },
        },
        DynamicValue: { fields: { msgpack: { type: "bytes", id: 1 } } },
        Path: {
          fields: { steps: { rule: "repeated", type: "Step", id: 1 } },
          nested: {
            Step: {
              oneofs: { selector: { oneof: ["attribute_name", "element_key"] } },
              fields: { attribute_name: { type: "string", id: 1 }, element_key: { type: DV, id: 2 } },
            },
          },
        },
        Importing: { fields: { id: { type: "string", id: 1 } } },
      },
    },
  },
};

let planType: protobuf.Type | undefined;

function tfplanType(): protobuf.Type {
  planType ??= protobuf.Root.fromJSON(DESCRIPTOR).lookupType("tfplan.Plan");
  return planType;
}

/** The implied type of a resource type's schema, by provider, mode and type name. */
export type ResourceTypeLookup = (provider: Provider, mode: ResourceMode, type: string) => Type | undefined;

/** Whether the format has a number for the reason (others are written as NONE). */
export function tfplanReason(r: ActionReason): boolean {
  return REASONS[r] !== undefined;
}

/** The providers of the plan's resource changes and drift, whose schemas reading it needs. */
export function tfplanProviders(bytes: Uint8Array): Provider[] {
  const t = tfplanType();
  let raw: RawPlan;
  try {
    raw = t.toObject(t.decode(bytes), { enums: String }) as RawPlan;
  } catch {
    return [];
  }
  const out = new Map<string, Provider>();
  for (const rc of [...(raw.resource_changes ?? []), ...(raw.resource_drift ?? [])]) {
    const p = parseAbsProviderConfigStr(rc.provider ?? "").result;
    if (p) out.set(p.provider.toString(), p.provider);
  }
  return [...out.values()];
}

/** A plan that cannot be written or read; the message says what and where. */
export class TfplanError extends Error {}

/** A change whose resource type's schema the caller has not given: the providers can give it. */
export class TfplanMissingSchema extends TfplanError {}

// ---------------------------------------------------------------------------------------------
// The message as protobufjs hands it over (toObject with enums as names, longs as numbers).

interface RawDynamicValue {
  msgpack?: Uint8Array;
}
interface RawStep {
  attribute_name?: string;
  element_key?: RawDynamicValue;
  selector?: string;
}
interface RawPath {
  steps?: RawStep[];
}
interface RawChange {
  action?: string;
  values?: RawDynamicValue[];
  before_sensitive_paths?: RawPath[];
  after_sensitive_paths?: RawPath[];
  importing?: { id?: string } | null;
  generated_config?: string;
}
interface RawResourceChange {
  addr?: string;
  prev_run_addr?: string;
  deposed_key?: string;
  provider?: string;
  change?: RawChange | null;
  private?: Uint8Array;
  required_replace?: RawPath[];
  action_reason?: string;
}
interface RawOutputChange {
  name?: string;
  change?: RawChange | null;
  sensitive?: boolean;
}
interface RawCheckResults {
  kind?: string;
  config_addr?: string;
  status?: string;
  objects?: Array<{ object_addr?: string; status?: string; failure_messages?: string[] }>;
}
interface RawPlan {
  version?: number;
  ui_mode?: string;
  errored?: boolean;
  variables?: Record<string, RawDynamicValue>;
  resource_changes?: RawResourceChange[];
  resource_drift?: RawResourceChange[];
  output_changes?: RawOutputChange[];
  check_results?: RawCheckResults[];
  target_addrs?: string[];
  exclude_addrs?: string[];
  force_replace_addrs?: string[];
  terraform_version?: string;
  backend?: { type?: string; config?: RawDynamicValue; workspace?: string } | null;
  relevant_attributes?: Array<{ resource?: string; attr?: RawPath }>;
  timestamp?: string;
  ephemeral_variables?: string[];
  applyable?: boolean;
  complete?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Enumerations

const MODES: Record<UIMode, string> = { normal: "NORMAL", destroy: "DESTROY", "refresh-only": "REFRESH_ONLY" };

const ACTIONS: Partial<Record<Action, string>> = {
  NoOp: "NOOP",
  Create: "CREATE",
  Read: "READ",
  Update: "UPDATE",
  Delete: "DELETE",
  DeleteThenCreate: "DELETE_THEN_CREATE",
  CreateThenDelete: "CREATE_THEN_DELETE",
  Forget: "FORGET",
  ForgetThenCreate: "FORGET_THEN_CREATE",
};

// Reasons the format has no number for are written as NONE: a reason only explains an action.
const REASONS: Partial<Record<ActionReason, string>> = {
  None: "NONE",
  ReplaceBecauseTainted: "REPLACE_BECAUSE_TAINTED",
  ReplaceByRequest: "REPLACE_BY_REQUEST",
  ReplaceBecauseCannotUpdate: "REPLACE_BECAUSE_CANNOT_UPDATE",
  DeleteBecauseNoResourceConfig: "DELETE_BECAUSE_NO_RESOURCE_CONFIG",
  DeleteBecauseWrongRepetition: "DELETE_BECAUSE_WRONG_REPETITION",
  DeleteBecauseCountIndex: "DELETE_BECAUSE_COUNT_INDEX",
  DeleteBecauseEachKey: "DELETE_BECAUSE_EACH_KEY",
  DeleteBecauseNoModule: "DELETE_BECAUSE_NO_MODULE",
  ReplaceByTriggers: "REPLACE_BY_TRIGGERS",
  ReadBecauseConfigUnknown: "READ_BECAUSE_CONFIG_UNKNOWN",
  ReadBecauseDependencyPending: "READ_BECAUSE_DEPENDENCY_PENDING",
  DeleteBecauseNoMoveTarget: "DELETE_BECAUSE_NO_MOVE_TARGET",
  ReadBecauseCheckNested: "READ_BECAUSE_CHECK_NESTED",
  DeleteBecauseEnabledFalse: "DELETE_BECAUSE_ENABLED_FALSE",
};

const STATUSES: Record<CheckStatus, string> = { unknown: "UNKNOWN", pass: "PASS", fail: "FAIL", error: "ERROR" };
const KINDS: Record<CheckableKind, string> = { resource: "RESOURCE", output: "OUTPUT_VALUE", check: "CHECK", var: "INPUT_VARIABLE" };

function inverse<K extends string>(m: Partial<Record<K, string>>): Map<string, K> {
  return new Map(Object.entries(m).map(([k, v]) => [v as string, k as K]));
}
const MODE_OF = inverse(MODES);
const ACTION_OF = inverse(ACTIONS);
const REASON_OF = inverse(REASONS);
const STATUS_OF = inverse(STATUSES);
const KIND_OF = inverse(KINDS);

// ---------------------------------------------------------------------------------------------
// Writing

function msgpack(v: Value, type: Type, what: string): RawDynamicValue {
  const r = marshalMsgpack(v, type);
  if (!r.ok) throw new TfplanError(`cannot encode ${what}: ${formatPathError(r.error)}`);
  return { msgpack: r.value };
}

function pathToRaw(p: Path, what: string): RawPath {
  return {
    steps: p.map((s): RawStep => (s.kind === "attr" ? { attribute_name: s.name } : { element_key: msgpack(s.key, s.key.type, `a path step of ${what}`) })),
  };
}

/** A value without its marks, and the paths of its sensitive parts. */
function split(v: Value, what: string): { plain: Value; sensitive: RawPath[] } {
  const [plain, pvm] = unmarkDeepWithPaths(v);
  return { plain, sensitive: pvm.filter((m) => m.marks.has(SENSITIVE)).map((m) => pathToRaw(m.path, what)) };
}

function changeToRaw(c: Change, type: Type, what: string): RawChange {
  const action = ACTIONS[c.action];
  if (!action) throw new TfplanError(`${what} has the action ${c.action}, which a plan file cannot record`);
  const before = split(c.before, what);
  const after = split(c.after, what);
  const b = msgpack(before.plain, type, what);
  const a = msgpack(after.plain, type, what);
  // Which values are stored depends on the action (changeToTfplan).
  const values = c.action === "NoOp" || c.action === "Delete" || c.action === "Forget" ? [b] : c.action === "Create" ? [a] : [b, a];
  const raw: RawChange = { action, values };
  if (before.sensitive.length > 0) raw.before_sensitive_paths = before.sensitive;
  if (after.sensitive.length > 0) raw.after_sensitive_paths = after.sensitive;
  if (c.importing) raw.importing = { id: c.importing.id };
  if (c.generatedConfig) raw.generated_config = c.generatedConfig;
  return raw;
}

function resourceChangeToRaw(rc: ResourceInstanceChange, types: ResourceTypeLookup): RawResourceChange {
  const what = rc.addr.toString();
  const res = rc.addr.resource.resource;
  const type = types(rc.providerAddr.provider, res.mode, res.type);
  if (!type) throw new TfplanError(`no schema for ${what} (${rc.providerAddr.toString()})`);
  const raw: RawResourceChange = { addr: what, provider: rc.providerAddr.toString(), change: changeToRaw(rc.change, type, what) };
  const prev = rc.prevRunAddr.toString();
  if (prev !== what) raw.prev_run_addr = prev;
  if (rc.deposedKey) raw.deposed_key = rc.deposedKey;
  if (rc.requiredReplace.length > 0) raw.required_replace = rc.requiredReplace.map((p) => pathToRaw(p, what));
  const reason = REASONS[rc.actionReason] ?? "NONE";
  if (reason !== "NONE") raw.action_reason = reason;
  if (rc.private && rc.private.length > 0) raw.private = rc.private;
  return raw;
}

function checksToRaw(a: CheckResultAggregate): RawCheckResults {
  return {
    kind: KINDS[a.objectKind],
    config_addr: a.configAddr,
    status: STATUSES[a.status],
    objects: a.objects.map((o) => ({ object_addr: o.objectAddr, status: STATUSES[o.status], failure_messages: o.failureMessages })),
  };
}

/** Go's time.RFC3339, which has whole seconds. */
function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d+Z$/, "Z");
}

/** writeTfplan: the plan's changes and settings (the states travel beside it in the zip). */
export function encodeTfplan(plan: Plan, tofuVersion: string, types: ResourceTypeLookup): Uint8Array {
  const raw: RawPlan = {
    version: TFPLAN_FORMAT_VERSION,
    terraform_version: tofuVersion,
    ui_mode: MODES[plan.uiMode],
    errored: plan.errored,
    applyable: plan.applyable,
    complete: plan.complete,
    // An ephemeral variable's value is never written down; its name tells apply to ask for it.
    variables: Object.fromEntries(
      [...plan.variableValues].filter(([k]) => !plan.ephemeralVariables.includes(k)).map(([k, v]) => [k, msgpack(unmarkDeepWithPaths(v)[0], DynamicPseudoType, `var.${k}`)]),
    ),
    ephemeral_variables: plan.ephemeralVariables,
    // Ephemeral resources live for one run only; OpenTofu does not record them.
    resource_changes: plan.changes.resources.filter((rc) => rc.addr.resource.resource.mode !== "ephemeral").map((rc) => resourceChangeToRaw(rc, types)),
    resource_drift: plan.driftedResources.map((rc) => resourceChangeToRaw(rc, types)),
    output_changes: plan.changes.outputs
      .filter((oc) => oc.addr.module.isRoot())
      .map((oc) => ({ name: oc.addr.outputValue.name, change: changeToRaw(oc.change, DynamicPseudoType, oc.addr.toString()), sensitive: oc.sensitive })),
    check_results: plan.checks?.configResults.map(checksToRaw) ?? [],
    target_addrs: plan.targetAddrs.map((t) => t.toString()),
    exclude_addrs: plan.excludeAddrs.map((t) => t.toString()),
    force_replace_addrs: plan.forceReplaceAddrs.map((t) => t.toString()),
    relevant_attributes: plan.relevantAttributes.map((ra) => ({ resource: ra.resource.toString(), attr: pathToRaw(ra.attr, ra.resource.toString()) })),
    timestamp: rfc3339(plan.timestamp),
  };
  if (plan.backend) {
    const [config] = unmarkDeepWithPaths(plan.backend.config);
    raw.backend = { type: plan.backend.type, config: msgpack(config, config.type, "the backend configuration"), workspace: plan.backend.workspace };
  }
  const t = tfplanType();
  return t.encode(t.fromObject(raw)).finish();
}

// ---------------------------------------------------------------------------------------------
// Reading

/** What the `tfplan` entry holds: a plan without its states, which the zip carries beside it. */
export interface DecodedTfplan {
  plan: Omit<Plan, "priorState" | "prevRunState">;
  /** terraform_version: the program and version that wrote the plan. */
  writtenBy: string;
}

function value(raw: RawDynamicValue | undefined, type: Type, what: string): Value {
  const bytes = raw?.msgpack;
  if (!bytes || bytes.length === 0) throw new TfplanError(`${what} has no msgpack value`);
  const r = unmarshalMsgpack(bytes, type);
  if (!r.ok) throw new TfplanError(`cannot decode ${what}: ${formatPathError(r.error)}`);
  return r.value;
}

function pathFromRaw(p: RawPath | undefined, what: string): Path {
  return (p?.steps ?? []).map((s): PathStep => {
    if (s.element_key) {
      const bytes = s.element_key.msgpack ?? new Uint8Array();
      let type: Type;
      try {
        type = msgpackImpliedType(bytes);
      } catch (e) {
        throw new TfplanError(`invalid path step in ${what}: ${(e as Error).message}`);
      }
      return { kind: "index", key: value(s.element_key, type, `a path step of ${what}`) };
    }
    return { kind: "attr", name: s.attribute_name ?? "" };
  });
}

function sensitive(v: Value, paths: RawPath[] | undefined, what: string): Value {
  if (!paths || paths.length === 0) return v;
  const marks = new Set([SENSITIVE]);
  return markWithPaths(
    v,
    paths.map((p) => ({ path: pathFromRaw(p, what), marks })),
  );
}

function changeFromRaw(raw: RawChange | null | undefined, type: Type, what: string): Change {
  if (!raw) throw new TfplanError(`${what} has no change`);
  const action = ACTION_OF.get(raw.action ?? "NOOP");
  if (!action) throw new TfplanError(`${what} has an unsupported action ${String(raw.action)}`);
  const values = raw.values ?? [];
  const at = (i: number): Value => value(values[i], type, what);
  const none = nullVal(type);
  let before: Value;
  let after: Value;
  switch (action) {
    case "NoOp":
      before = after = at(0);
      break;
    case "Create":
      [before, after] = [none, at(0)];
      break;
    case "Delete":
    case "Forget":
      [before, after] = [at(0), none];
      break;
    default:
      [before, after] = [at(0), at(1)];
  }
  const c: Change = { action, before: sensitive(before, raw.before_sensitive_paths, what), after: sensitive(after, raw.after_sensitive_paths, what), generatedConfig: raw.generated_config ?? "" };
  if (raw.importing) c.importing = { id: raw.importing.id ?? "" };
  return c;
}

function parsed<T>(what: string, s: string | undefined, parse: (s: string) => { result: T | undefined; diagnostics: Diagnostic[] }): T {
  const r = parse(s ?? "");
  if (!r.result || r.diagnostics.some((d) => d.severity === "error")) throw new TfplanError(`invalid ${what} ${JSON.stringify(s ?? "")}`);
  return r.result;
}

function resourceChangeFromRaw(raw: RawResourceChange, types: ResourceTypeLookup): ResourceInstanceChange {
  const addr = parsed("resource instance address", raw.addr, parseAbsResourceInstanceStr);
  const what = addr.toString();
  const providerAddr = parsed("provider configuration address", raw.provider, parseAbsProviderConfigStr);
  const res = addr.resource.resource;
  const type = types(providerAddr.provider, res.mode, res.type);
  if (!type) throw new TfplanMissingSchema(`no schema for ${what}: provider ${providerAddr.provider.toString()} has no ${res.mode === "data" ? "data source" : "resource type"} ${JSON.stringify(res.type)}`);
  const rc: ResourceInstanceChange = {
    addr,
    prevRunAddr: raw.prev_run_addr ? parsed("resource instance address", raw.prev_run_addr, parseAbsResourceInstanceStr) : addr,
    deposedKey: raw.deposed_key ?? "",
    providerAddr,
    // Not recorded: the provider instance is the state's, or resolved again when applying.
    providerKey: NoKey,
    change: changeFromRaw(raw.change, type, what),
    actionReason: REASON_OF.get(raw.action_reason ?? "NONE") ?? "None",
    requiredReplace: (raw.required_replace ?? []).map((p) => pathFromRaw(p, what)),
  };
  if (raw.private && raw.private.length > 0) rc.private = raw.private;
  return rc;
}

function outputChangeFromRaw(raw: RawOutputChange): OutputChange {
  const addr = parsed("output name", `output.${raw.name ?? ""}`, parseAbsOutputValueStr);
  return { addr, sensitive: raw.sensitive === true, change: changeFromRaw(raw.change, DynamicPseudoType, addr.toString()) };
}

function checksFromRaw(raw: RawCheckResults): CheckResultAggregate {
  const status = (s: string | undefined): CheckStatus => STATUS_OF.get(s ?? "UNKNOWN") ?? "unknown";
  const kind = KIND_OF.get(raw.kind ?? "UNSPECIFIED");
  if (!kind) throw new TfplanError(`check results for ${JSON.stringify(raw.config_addr ?? "")} have an unsupported kind ${String(raw.kind)}`);
  return {
    objectKind: kind,
    configAddr: raw.config_addr ?? "",
    status: status(raw.status),
    objects: (raw.objects ?? []).map((o) => ({ objectAddr: o.object_addr ?? "", status: status(o.status), failureMessages: o.failure_messages ?? [] })),
  };
}

const TARGET = (s: string): { result: Targetable | undefined; diagnostics: Diagnostic[] } => {
  const r = parseTargetStr(s);
  return { result: r.result?.subject, diagnostics: r.diagnostics };
};

/**
 * The backend's settings. Its configuration is msgpack against the backend's schema, which only
 * names attributes of primitive types, so the value's own shape gives the type.
 */
function backendFromRaw(raw: NonNullable<RawPlan["backend"]>): PlanBackend {
  const bytes = raw.config?.msgpack;
  let type: Type;
  try {
    type = bytes && bytes.length > 0 ? msgpackImpliedType(bytes) : DynamicPseudoType;
  } catch (e) {
    throw new TfplanError(`invalid backend configuration: ${(e as Error).message}`);
  }
  return { type: raw.type ?? "", config: value(raw.config, type, "the backend configuration"), workspace: raw.workspace ?? "default" };
}

/** readTfplan. The caller checks `writtenBy` against what it accepts. */
export function decodeTfplan(bytes: Uint8Array, types: ResourceTypeLookup): DecodedTfplan {
  const t = tfplanType();
  let raw: RawPlan;
  try {
    raw = t.toObject(t.decode(bytes), { longs: Number, enums: String, bytes: Uint8Array, oneofs: true }) as RawPlan;
  } catch (e) {
    throw new TfplanError(`the plan is not a valid protobuf message: ${(e as Error).message}`);
  }
  if ((raw.version ?? 0) !== TFPLAN_FORMAT_VERSION) {
    throw new TfplanError(`unsupported plan file format version ${String(raw.version ?? 0)}; only version ${TFPLAN_FORMAT_VERSION} is supported`);
  }
  const uiMode = MODE_OF.get(raw.ui_mode ?? "NORMAL");
  if (!uiMode) throw new TfplanError(`unsupported plan mode ${String(raw.ui_mode)}`);
  const variableValues = new Map<string, Value>();
  for (const [k, v] of Object.entries(raw.variables ?? {})) variableValues.set(k, value(v, DynamicPseudoType, `var.${k}`));
  const relevantAttributes: ResourceAttr[] = (raw.relevant_attributes ?? []).map((ra) => {
    const resource = parsed("resource instance address", ra.resource, parseAbsResourceInstanceStr);
    return { resource, attr: pathFromRaw(ra.attr, resource.toString()) };
  });
  const timestamp = raw.timestamp ? new Date(raw.timestamp) : new Date(0);
  if (Number.isNaN(timestamp.getTime())) throw new TfplanError(`invalid timestamp ${JSON.stringify(raw.timestamp)}`);
  const checks: CheckResults | undefined = raw.check_results && raw.check_results.length > 0 ? { configResults: raw.check_results.map(checksFromRaw) } : undefined;
  const errored = raw.errored === true;
  const resources = (raw.resource_changes ?? []).map((rc) => resourceChangeFromRaw(rc, types));
  const outputs = (raw.output_changes ?? []).map(outputChangeFromRaw);
  const targetAddrs = (raw.target_addrs ?? []).map((s) => parsed("target address", s, TARGET));
  const excludeAddrs = (raw.exclude_addrs ?? []).map((s) => parsed("target address", s, TARGET));
  const recordsOutcome = raw.applyable !== undefined || raw.complete !== undefined;
  const plan: DecodedTfplan["plan"] = {
    uiMode,
    variableValues,
    ephemeralVariables: raw.ephemeral_variables ?? [],
    changes: { resources, outputs },
    driftedResources: (raw.resource_drift ?? []).map((rc) => resourceChangeFromRaw(rc, types)),
    relevantAttributes,
    checks,
    timestamp,
    targetAddrs,
    excludeAddrs,
    forceReplaceAddrs: (raw.force_replace_addrs ?? []).map((s) => parsed("resource instance address", s, parseAbsResourceInstanceStr)) as AbsResourceInstance[],
    // OpenTofu does not record these; terraform does, leaving out a false as proto3 does, so
    // when either is present the other's absence means false.
    applyable: raw.applyable ?? (recordsOutcome ? false : !errored && (resources.some((rc) => rc.change.action !== "NoOp") || outputs.some((o) => o.change.action !== "NoOp"))),
    complete: raw.complete ?? (recordsOutcome ? false : !errored && targetAddrs.length === 0 && excludeAddrs.length === 0),
    errored,
    backend: raw.backend ? backendFromRaw(raw.backend) : undefined,
  };
  return { plan, writtenBy: raw.terraform_version ?? "" };
}
