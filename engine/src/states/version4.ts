// State snapshot format version 4 (OpenTofu's statefile/version4.go): the only format OpenTofu
// reads and writes (converted states may still hold flatmap `attributes_flat`). Includes
// the provider-iteration rules: a resource's "provider" may instead be given per instance
// object, with an instance key.
import type { Diagnostic } from "../hcl/index.js";
import {
  DataResourceMode,
  ManagedResourceMode,
  NoKey,
  Resource as ResourceAddr,
  RootModuleInstance,
  instanceKeyString,
  intKey,
  parseAbsProviderConfigInstanceStr,
  parseAbsProviderConfigStr,
  parseAbsResourceStr,
  parseLegacyAbsProviderConfigStr,
  parseModuleInstanceStr,
  stringKey,
  type AbsProviderConfig,
  type InstanceKey,
  type ModuleInstance,
  type ResourceMode,
} from "../addrs/index.js";
import {
  DynamicPseudoType,
  compareStrings,
  compactGo,
  formatPathError,
  goField,
  goJSONString,
  goKindName,
  goQuote,
  indentGo,
  marshalJSON,
  marshalType,
  parseGoJSON,
  typeFromJSON,
  unmarkDeep,
  unmarshalJSON,
  type JsonNode,
  type JsonParseResult,
  type Path,
  type PathStep,
} from "../values/index.js";
import { base64DecodeStrict, base64Encode } from "./base64.js";
import { GoDecoder } from "./godecode.js";
import { NotDeposed, newObjectSrc, type DeposedKey, type ObjectStatus, type ResourceInstanceObjectSrc } from "./objects.js";
import { State, type CheckResultAggregate, type CheckResults, type CheckStatus, type CheckableKind, type Resource } from "./state.js";
import type { File } from "./file.js";

const INVALID_FORMAT = "Invalid state file format";

function err(summary: string, detail: string): Diagnostic {
  return { severity: "error", summary, detail };
}
function warn(summary: string, detail: string): Diagnostic {
  return { severity: "warning", summary, detail };
}

// ---------------------------------------------------------------------------------------------
// Decoding the JSON into the v4 structure, with Go's json.Unmarshal type rules

interface InstanceV4 {
  indexKey: JsonNode | undefined;
  status: string;
  deposed: string;
  provider: string;
  schemaVersion: number;
  attributes: string | undefined;
  attributesFlat: Map<string, string> | undefined;
  sensitiveAttributes: string | undefined;
  private: Uint8Array | undefined;
  dependencies: string[];
  createBeforeDestroy: boolean;
  skipDestroy: boolean;
  identity: string | undefined;
  identitySchemaVersion: number;
}

interface ResourceV4 {
  module: string;
  mode: string;
  type: string;
  name: string;
  provider: string;
  instances: InstanceV4[];
}

interface OutputV4 {
  name: string;
  value: string | undefined;
  type: JsonNode | undefined;
  typeRaw: string | undefined;
  sensitive: boolean;
}

interface CheckResultsV4 {
  objectKind: string;
  configAddr: string;
  status: string;
  objects: Array<{ objectAddr: string; status: string; failureMessages: string[] }>;
}

interface StateV4 {
  terraformVersion: string;
  serial: number;
  lineage: string;
  outputs: OutputV4[];
  resources: ResourceV4[];
  checkResults: CheckResultsV4[] | undefined;
}

class Decoder extends GoDecoder {
  stateV4(root: JsonNode): StateV4 {
    const s: StateV4 = { terraformVersion: "", serial: 0, lineage: "", outputs: [], resources: [], checkResults: undefined };
    const obj = this.object(root, "");
    if (!obj) return s;
    s.terraformVersion = this.str(obj, "terraform_version", "terraform_version");
    s.serial = this.uint(obj, "serial", "serial");
    s.lineage = this.str(obj, "lineage", "lineage");

    const outputs = goField(obj, "outputs");
    if (outputs && outputs.t !== "null") {
      const o = this.object(outputs, "outputs");
      const seen = new Map<string, OutputV4>();
      for (const [name, n] of o?.entries ?? []) {
        // Go names struct fields in the path, never map keys.
        const os = this.object(n, "outputs");
        const out: OutputV4 = { name, value: undefined, type: undefined, typeRaw: undefined, sensitive: false };
        if (os) {
          out.value = this.raw(os, "value");
          out.type = goField(os, "type");
          out.typeRaw = this.raw(os, "type");
          out.sensitive = this.bool(os, "sensitive", "outputs.sensitive");
        }
        seen.set(name, out);
      }
      s.outputs = [...seen.values()];
    }

    for (const rn of this.array(obj, "resources", "resources") ?? []) {
      const ro = this.object(rn, "resources");
      if (!ro) {
        s.resources.push({ module: "", mode: "", type: "", name: "", provider: "", instances: [] });
        continue;
      }
      const rs: ResourceV4 = {
        module: this.str(ro, "module", "resources.module"),
        mode: this.str(ro, "mode", "resources.mode"),
        type: this.str(ro, "type", "resources.type"),
        name: this.str(ro, "name", "resources.name"),
        provider: this.str(ro, "provider", "resources.provider"),
        instances: [],
      };
      this.str(ro, "each", "resources.each"); // read, never used or written
      for (const inode of this.array(ro, "instances", "resources.instances") ?? []) {
        rs.instances.push(this.instanceV4(inode));
      }
      s.resources.push(rs);
    }

    const checks = goField(obj, "check_results");
    if (checks && checks.t !== "null") {
      s.checkResults = [];
      if (checks.t !== "array") this.typeError(checks, "check_results");
      else {
        for (const cn of checks.items) {
          const co = this.object(cn, "check_results");
          if (!co) continue;
          const cr: CheckResultsV4 = {
            objectKind: this.str(co, "object_kind", "check_results.object_kind"),
            configAddr: this.str(co, "config_addr", "check_results.config_addr"),
            status: this.str(co, "status", "check_results.status"),
            objects: [],
          };
          for (const on of this.array(co, "objects", "check_results.objects") ?? []) {
            const oo = this.object(on, "check_results.objects");
            if (!oo) continue;
            cr.objects.push({
              objectAddr: this.str(oo, "object_addr", "check_results.objects.object_addr"),
              status: this.str(oo, "status", "check_results.objects.status"),
              failureMessages: this.strings(oo, "failure_messages", "check_results.objects.failure_messages"),
            });
          }
          s.checkResults.push(cr);
        }
      }
    }
    return s;
  }

  instanceV4(n: JsonNode): InstanceV4 {
    const is: InstanceV4 = {
      indexKey: undefined,
      status: "",
      deposed: "",
      provider: "",
      schemaVersion: 0,
      attributes: undefined,
      attributesFlat: undefined,
      sensitiveAttributes: undefined,
      private: undefined,
      dependencies: [],
      createBeforeDestroy: false,
      skipDestroy: false,
      identity: undefined,
      identitySchemaVersion: 0,
    };
    const o = this.object(n, "resources.instances");
    if (!o) return is;
    const p = "resources.instances.";
    const key = goField(o, "index_key");
    if (key && key.t === "number" && !Number.isFinite(Number(key.raw))) this.typeError(key, p + "index_key", `number ${key.raw}`);
    is.indexKey = key;
    is.status = this.str(o, "status", p + "status");
    is.deposed = this.str(o, "deposed", p + "deposed");
    is.provider = this.str(o, "provider", p + "provider");
    is.schemaVersion = this.uint(o, "schema_version", p + "schema_version");
    is.attributes = this.raw(o, "attributes");
    const flat = goField(o, "attributes_flat");
    if (flat && flat.t !== "null") {
      const fo = this.object(flat, p + "attributes_flat");
      if (fo) {
        is.attributesFlat = new Map();
        for (const [k, v] of fo.entries) {
          if (v.t === "string") is.attributesFlat.set(k, v.v);
          else if (v.t === "null") is.attributesFlat.set(k, "");
          else this.typeError(v, `${p}attributes_flat`);
        }
      }
    }
    is.sensitiveAttributes = this.raw(o, "sensitive_attributes");
    const priv = goField(o, "private");
    if (priv && priv.t !== "null") {
      if (priv.t !== "string") this.typeError(priv, p + "private");
      else {
        const b = base64DecodeStrict(priv.v);
        if (b.ok) is.private = b.bytes;
        else this.otherError(priv, b.error);
      }
    }
    is.dependencies = this.strings(o, "dependencies", p + "dependencies");
    this.strings(o, "depends_on", p + "depends_on"); // legacy, read and ignored
    is.createBeforeDestroy = this.bool(o, "create_before_destroy", p + "create_before_destroy");
    is.skipDestroy = this.bool(o, "skip_destroy", p + "skip_destroy");
    is.identity = this.raw(o, "identity");
    is.identitySchemaVersion = this.uint(o, "identity_schema_version", p + "identity_schema_version");
    return is;
  }
}

// ---------------------------------------------------------------------------------------------
// Reading

/** Go's %#v of an index_key that is neither a number nor a string. */
function goSharpV(n: JsonNode): string {
  switch (n.t) {
    case "bool":
      return String(n.v);
    case "array":
      return `[]interface {}{${n.items.map(goSharpV).join(", ")}}`;
    case "object":
      return `map[string]interface {}{${n.entries.map(([k, v]) => `${goQuote(k)}:${goSharpV(v)}`).join(", ")}}`;
    case "string":
      return goQuote(n.v);
    case "number":
      return n.raw;
    case "null":
      return "<nil>";
  }
}

export interface ReadV4Result {
  file: File | undefined;
  diagnostics: Diagnostic[];
}

/**
 * The members the v4 decoder keeps only as raw text (decoded later against a schema): parsing
 * skims them (see parseGoJSON), which spares building a tree for every object in the state.
 */
export const STATE_V4_RAW_MEMBERS: ReadonlySet<string> = new Set(["attributes", "sensitive_attributes", "identity"]);

/** readStateV4: decodes and validates a version 4 snapshot (`tree`: src already parsed with STATE_V4_RAW_MEMBERS). */
export function readStateV4(src: Uint8Array, tree?: JsonNode): ReadV4Result {
  const parsed: JsonParseResult = tree ? { ok: true, node: tree } : parseGoJSON(src, STATE_V4_RAW_MEMBERS);
  if (!parsed.ok) {
    return {
      file: undefined,
      diagnostics: [err(INVALID_FORMAT, `The state file could not be parsed as JSON: syntax error at byte offset ${parsed.error.offset}.`)],
    };
  }
  const dec = new Decoder(src);
  const sV4 = dec.stateV4(parsed.node);
  if (dec.problem) return { file: undefined, diagnostics: [dec.problem.diag] };
  return prepareStateV4(sV4);
}

function isValidVersion(v: string): boolean {
  // hashicorp/go-version's loose pattern: optional v, 1+ dot-separated numbers, prerelease, metadata.
  return /^v?([0-9]+(\.[0-9]+)*?)(-([0-9]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)|(-?([A-Za-z\-~]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)))?(\+([0-9A-Za-z\-~]+(\.[0-9A-Za-z\-~]+)*))?$/.test(v);
}

export { isValidVersion as isValidGoVersion };

function decodeIndexKey(n: JsonNode | undefined): { key: InstanceKey } | { invalid: JsonNode } {
  if (!n || n.t === "null") return { key: NoKey };
  if (n.t === "string") return { key: stringKey(n.v) };
  if (n.t === "number") {
    const f = Math.trunc(Number(n.raw));
    return { key: intKey(Number.isSafeInteger(f) ? f : 0) };
  }
  return { invalid: n };
}

function decodeSensitivePaths(raw: string | undefined, diags: Diagnostic[]): Path[] | undefined {
  if (raw === undefined) return [];
  const src = new TextEncoder().encode(raw);
  const parsed = parseGoJSON(src);
  if (!parsed.ok) return [];
  const n = parsed.node;
  if (n.t === "null") return [];
  const fail = (summary: string, detail: string): undefined => {
    diags.push(err(summary, detail));
    return undefined;
  };
  if (n.t !== "array") return fail("Error unmarshaling path steps", `json: cannot unmarshal ${goKindName(n)} into Go value of type [][]statefile.pathStep`);
  const paths: Path[] = [];
  let failed = false;
  outer: for (const pn of n.items) {
    if (pn.t === "null") {
      paths.push([]);
      continue;
    }
    if (pn.t !== "array") {
      fail("Error unmarshaling path steps", `json: cannot unmarshal ${goKindName(pn)} into Go value of type []statefile.pathStep`);
      failed = true;
      continue;
    }
    const path: PathStep[] = [];
    for (const sn of pn.items) {
      if (sn.t !== "object") {
        if (sn.t === "null") continue;
        fail("Error unmarshaling path steps", `json: cannot unmarshal ${goKindName(sn)} into Go value of type statefile.pathStep`);
        failed = true;
        continue outer;
      }
      const typeNode = goField(sn, "type");
      const stepType = typeNode?.t === "string" ? typeNode.v : "";
      const valueNode = goField(sn, "value");
      switch (stepType) {
        case "index": {
          const raw = valueNode ? compactGo(src, valueNode.start, valueNode.end) : "";
          const key = unmarshalJSON(raw, DynamicPseudoType);
          if (!key.ok) {
            fail("Error unmarshaling path step", `Failed to unmarshal index step key: ${formatPathError(key.error)}`);
            failed = true;
            continue outer;
          }
          path.push({ kind: "index", key: key.value });
          break;
        }
        case "get_attr": {
          if (!valueNode || valueNode.t !== "string") {
            const kind = valueNode ? goKindName(valueNode) : "null";
            fail("Error unmarshaling path step", `Failed to unmarshal get attr step name: json: cannot unmarshal ${kind} into Go value of type string`);
            failed = true;
            continue outer;
          }
          path.push({ kind: "attr", name: valueNode.v });
          break;
        }
        default:
          fail("Unsupported path step", `Unsupported path step type ${goQuote(stepType)}`);
          failed = true;
          continue outer;
      }
    }
    paths.push(path);
  }
  return failed ? undefined : paths;
}

function decodeCheckStatus(s: string): CheckStatus {
  return s === "pass" || s === "fail" || s === "error" ? s : "unknown";
}

function isCheckableKind(s: string): s is CheckableKind {
  return s === "resource" || s === "output" || s === "check" || s === "var";
}

interface ProviderChoice {
  config: AbsProviderConfig;
  key: InstanceKey;
}

export function prepareStateV4(sV4: StateV4): ReadV4Result {
  const diags: Diagnostic[] = [];
  // Every instance of a resource usually lists the same dependencies: parse each string once.
  const dependencyAddrs = new Map<string, ReturnType<typeof parseAbsResourceStr>>();
  let terraformVersion: string | undefined;
  if (sV4.terraformVersion !== "") {
    if (isValidVersion(sV4.terraformVersion)) terraformVersion = sV4.terraformVersion.replace(/^v/, "");
    else {
      diags.push(
        err(
          "Invalid OpenTofu version string",
          `State file claims to have been written by OpenTofu version ${goQuote(sV4.terraformVersion)}, which is not a valid version string.`,
        ),
      );
    }
  }
  const state = new State();

  for (const rsV4 of sV4.resources) {
    let mode: ResourceMode;
    switch (rsV4.mode) {
      case "managed":
        mode = ManagedResourceMode;
        break;
      case "data":
        mode = DataResourceMode;
        break;
      default:
        diags.push(
          err(
            "Invalid resource mode in state",
            `State contains a resource with mode ${goQuote(rsV4.mode)} (${goQuote(rsV4.type)} ${goQuote(rsV4.name)}) which is not supported.`,
          ),
        );
        continue;
    }
    const rAddr = new ResourceAddr(mode, rsV4.type, rsV4.name);

    let moduleAddr: ModuleInstance = RootModuleInstance;
    if (rsV4.module !== "") {
      const m = parseModuleInstanceStr(rsV4.module);
      diags.push(...m.diagnostics);
      if (!m.result || m.diagnostics.some((d) => d.severity === "error")) continue;
      moduleAddr = m.result;
    }
    const absAddr = rAddr.absolute(moduleAddr);

    // The resource-level address: the current form, or the pre-0.13 legacy form.
    let resourceProvider: AbsProviderConfig | undefined;
    if (rsV4.provider !== "") {
      const p = parseAbsProviderConfigStr(rsV4.provider);
      if (p.result && !p.diagnostics.some((d) => d.severity === "error")) resourceProvider = p.result;
      else {
        const legacy = parseLegacyAbsProviderConfigStr(rsV4.provider);
        if (legacy.result && !legacy.diagnostics.some((d) => d.severity === "error")) resourceProvider = legacy.result;
        else {
          diags.push(...p.diagnostics);
          continue;
        }
      }
    }

    const ms = state.ensureModule(moduleAddr);
    ms.setResourceProvider(rAddr, resourceProvider);
    let resolvedConfig: AbsProviderConfig | undefined;
    let reportedConflict = false;

    for (const isV4 of rsV4.instances) {
      const k = decodeIndexKey(isV4.indexKey);
      if ("invalid" in k) {
        diags.push(
          err("Invalid resource instance metadata in state", `Resource ${absAddr.toString()} has an instance with the invalid instance key ${goSharpV(k.invalid)}.`),
        );
        continue;
      }
      const instAddr = rAddr.instance(k.key);
      const absInst = instAddr.absolute(moduleAddr);

      let instanceProvider: ProviderChoice | undefined;
      if (isV4.provider !== "") {
        const p = parseAbsProviderConfigInstanceStr(isV4.provider);
        diags.push(...p.diagnostics);
        if (!p.result || p.diagnostics.some((d) => d.severity === "error")) continue;
        instanceProvider = p.result;
      }

      let choice: ProviderChoice;
      if (instanceProvider) {
        if (resourceProvider) {
          diags.push(
            warn(
              "Provider field conflict in state",
              `Resource ${absAddr.toString()} has a provider address ${resourceProvider.toString()}, as well as instance ${instanceKeyString(k.key) || absInst.toString()} with provider address ${instanceProvider.config.instanceString(instanceProvider.key)}.`,
            ),
          );
        }
        choice = instanceProvider;
      } else if (resourceProvider) {
        choice = { config: resourceProvider, key: NoKey };
      } else {
        diags.push(
          err("Provider field missing state", `Resource ${absAddr.toString()} is missing a provider address, both on the resource and the resource instances.`),
        );
        continue;
      }
      if (resolvedConfig === undefined) resolvedConfig = choice.config;
      else if (!resolvedConfig.equal(choice.config)) {
        if (!reportedConflict) {
          diags.push(
            err(
              "Provider instance field conflict in state",
              `Resource ${absAddr.toString()} has instances with different provider addresses: ${goQuote(resolvedConfig.toString())} != ${goQuote(choice.config.toString())}.`,
            ),
          );
          reportedConflict = true;
        }
        continue;
      }

      const obj: ResourceInstanceObjectSrc = newObjectSrc({
        schemaVersion: isV4.schemaVersion,
        createBeforeDestroy: isV4.createBeforeDestroy,
        skipDestroy: isV4.skipDestroy,
        identitySchemaVersion: isV4.identitySchemaVersion,
      });
      if (isV4.attributes !== undefined) obj.attrsJSON = isV4.attributes;
      else if (isV4.attributesFlat !== undefined) obj.attrsFlat = isV4.attributesFlat;
      else obj.attrsJSON = "{}"; // odd, but accepted: hand-written test states
      if (isV4.identity !== undefined) obj.identityJSON = isV4.identity;

      const paths = decodeSensitivePaths(isV4.sensitiveAttributes, diags);
      if (paths === undefined) continue;
      obj.attrSensitivePaths = paths;

      let status: ObjectStatus;
      switch (isV4.status) {
        case "":
          status = "ready";
          break;
        case "tainted":
          status = "tainted";
          break;
        default:
          diags.push(err("Invalid resource instance metadata in state", `Instance ${absInst.toString()} has invalid status ${goQuote(isV4.status)}.`));
          continue;
      }
      obj.status = status;
      if (isV4.private !== undefined && isV4.private.length > 0) obj.private = isV4.private;

      for (const depRaw of isV4.dependencies) {
        let d = dependencyAddrs.get(depRaw);
        if (!d) dependencyAddrs.set(depRaw, (d = parseAbsResourceStr(depRaw)));
        diags.push(...d.diagnostics);
        if (!d.result || d.diagnostics.some((x) => x.severity === "error")) continue;
        obj.dependencies.push(d.result.config());
      }

      if (isV4.deposed !== "") {
        const dk: DeposedKey = isV4.deposed;
        if (new TextEncoder().encode(dk).length !== 8) {
          diags.push(
            err(
              "Invalid resource instance metadata in state",
              `Instance ${absInst.toString()} has an object with deposed key ${goQuote(isV4.deposed)}, which is not correctly formatted.`,
            ),
          );
          continue;
        }
        const is = ms.resourceInstance(instAddr);
        if (is?.hasDeposed(dk)) {
          diags.push(
            err("Duplicate resource instance in state", `Instance ${absInst.toString()} deposed object ${goQuote(dk)} appears multiple times in the state file.`),
          );
          continue;
        }
        ms.setResourceInstanceDeposed(instAddr, dk, obj, choice.config, choice.key);
      } else {
        const is = ms.resourceInstance(instAddr);
        if (is?.hasCurrent()) {
          diags.push(err("Duplicate resource instance in state", `Instance ${absInst.toString()} appears multiple times in the state file.`));
          continue;
        }
        ms.setResourceInstanceCurrent(instAddr, obj, choice.config, choice.key);
      }
    }

    // Set again: the instance setters above reset it, and the file is the truth here.
    ms.setResourceProvider(rAddr, resolvedConfig ?? resourceProvider);
  }

  // Only root module outputs are persisted.
  const root = state.rootModule();
  for (const os of sV4.outputs) {
    let typeJSON: unknown;
    let typeError: string | undefined;
    if (os.typeRaw === undefined) typeError = "unexpected end of JSON input";
    else {
      typeJSON = JSON.parse(os.typeRaw);
      const t = typeFromJSON(typeJSON);
      if (!t.ok) typeError = t.error;
      else {
        const v = unmarshalJSON(os.value ?? "null", t.type);
        if (!v.ok) {
          diags.push(err("Invalid output value saved in state", `The state file has an invalid value for output ${goQuote(os.name)}: ${formatPathError(v.error)}.`));
          continue;
        }
        root.setOutputValue(os.name, v.value, os.sensitive);
        continue;
      }
    }
    diags.push(err("Invalid output value type in state", `The state file has an invalid type specification for output ${goQuote(os.name)}: ${typeError}.`));
  }

  // Absent and empty differ: absent means the writer predates checks.
  if (sV4.checkResults !== undefined) state.checkResults = decodeCheckResultsV4(sV4.checkResults);

  const file: File = { terraformVersion, serial: sV4.serial, lineage: sV4.lineage, state };
  return { file, diagnostics: diags };
}

function decodeCheckResultsV4(in_: CheckResultsV4[]): CheckResults {
  const out: CheckResultAggregate[] = [];
  for (const a of in_) {
    // Unknown kinds come from a newer writer: dropping them loses little and keeps reading.
    if (!isCheckableKind(a.objectKind)) continue;
    out.push({
      objectKind: a.objectKind,
      configAddr: a.configAddr,
      status: decodeCheckStatus(a.status),
      objects: a.objects.map((o) => ({ objectAddr: o.objectAddr, status: decodeCheckStatus(o.status), failureMessages: [...o.failureMessages] })),
    });
  }
  return { configResults: out };
}

// ---------------------------------------------------------------------------------------------
// Writing

function marshalPaths(paths: readonly Path[], diags: Diagnostic[]): string {
  const out: string[] = [];
  for (const path of paths) {
    const steps: string[] = [];
    let ok = true;
    for (const step of path) {
      if (step.kind === "attr") {
        steps.push(`{"type":"get_attr","value":${goJSONString(step.name)}}`);
        continue;
      }
      const key = marshalJSON(step.key, DynamicPseudoType);
      if (!key.ok) {
        diags.push(err("Error marshaling path step", `Failed to marshal index step key: ${formatPathError(key.error)}`));
        ok = false;
        break;
      }
      steps.push(`{"type":"index","value":${key.value}}`);
    }
    if (ok) out.push(`[${steps.join(",")}]`);
  }
  return `[${out.join(",")}]`;
}

/** Go's json.RawMessage re-encoding of text we already hold compact: escapes <, >, &. */
function rawJSON(text: string): string {
  return compactGo(new TextEncoder().encode(text));
}

interface InstanceOut {
  key: InstanceKey;
  deposed: DeposedKey;
  json: string;
}

function compareInstanceOut(a: InstanceOut, b: InstanceOut): number {
  const ka = a.key;
  const kb = b.key;
  if (ka.kind !== kb.kind || ka.kind !== "NoKey") {
    if (ka.kind === "NoKey") return -1;
    if (kb.kind === "NoKey") return 1;
    if (ka.kind === "IntKey" && kb.kind === "IntKey") {
      if (ka.value !== kb.value) return ka.value - kb.value;
    } else if (ka.kind === "StringKey" && kb.kind === "StringKey") {
      if (ka.value !== kb.value) return compareStrings(ka.value, kb.value);
    } else return ka.kind === "IntKey" ? -1 : 1;
  }
  return compareStrings(a.deposed, b.deposed);
}

function instanceObjectJSON(
  rs: Resource,
  key: InstanceKey,
  obj: ResourceInstanceObjectSrc,
  deposed: DeposedKey,
  providerString: string,
  diags: Diagnostic[],
): string {
  const f: string[] = [];
  if (key.kind === "IntKey") f.push(`"index_key":${key.value}`);
  else if (key.kind === "StringKey") f.push(`"index_key":${goJSONString(key.value)}`);
  switch (obj.status) {
    case "ready":
      break;
    case "tainted":
      f.push(`"status":"tainted"`);
      break;
    case "planned":
      diags.push(
        err("Failed to serialize resource instance in state", `Instance ${rs.addr.instance(key).toString()} has status ObjectPlanned, which cannot be saved in state.`),
      );
      break;
  }
  if (deposed !== NotDeposed) f.push(`"deposed":${goJSONString(deposed)}`);
  if (providerString !== "") f.push(`"provider":${goJSONString(providerString)}`);
  f.push(`"schema_version":${obj.schemaVersion}`);
  if (obj.attrsJSON !== undefined && obj.attrsJSON !== "") f.push(`"attributes":${rawJSON(obj.attrsJSON)}`);
  if (obj.attrsFlat !== undefined && obj.attrsFlat.size > 0) {
    const keys = [...obj.attrsFlat.keys()].sort(compareStrings);
    f.push(`"attributes_flat":{${keys.map((k) => `${goJSONString(k)}:${goJSONString(obj.attrsFlat?.get(k) ?? "")}`).join(",")}}`);
  }
  f.push(`"sensitive_attributes":${marshalPaths(obj.attrSensitivePaths, diags)}`);
  if (obj.private !== undefined && obj.private.length > 0) f.push(`"private":${goJSONString(base64Encode(obj.private))}`);
  if (obj.dependencies.length > 0) f.push(`"dependencies":[${obj.dependencies.map((d) => goJSONString(d.toString())).join(",")}]`);
  if (obj.createBeforeDestroy) f.push(`"create_before_destroy":true`);
  if (obj.skipDestroy) f.push(`"skip_destroy":true`);
  if (obj.identityJSON !== undefined && obj.identityJSON !== "") f.push(`"identity":${rawJSON(obj.identityJSON)}`);
  if (obj.identitySchemaVersion !== 0) f.push(`"identity_schema_version":${obj.identitySchemaVersion}`);
  return `{${f.join(",")}}`;
}

function modeString(mode: ResourceMode): string | undefined {
  switch (mode) {
    case "managed":
      return "managed";
    case "data":
      return "data";
    case "ephemeral":
      return undefined;
  }
}

export interface WriteV4Result {
  /** The snapshot: 2-space indented JSON and a trailing newline. */
  text: string;
  diagnostics: Diagnostic[];
}

/** writeStateV4: the file as OpenTofu writes it (WriteIndent: 2-space indentation). */
export function writeStateV4(file: File): WriteV4Result {
  const diags: Diagnostic[] = [];
  const state = file.state;

  const outputs: string[] = [];
  const root = state.rootModule();
  for (const name of [...root.outputValues.keys()].sort(compareStrings)) {
    const os = root.outputValues.get(name);
    if (!os) continue;
    const [plain] = unmarkDeep(os.value);
    const v = marshalJSON(plain, plain.type);
    if (!v.ok) {
      diags.push(
        err("Failed to serialize output value in state", `An error occurred while serializing output value ${goQuote(name)}: ${formatPathError(v.error)}.`),
      );
      continue;
    }
    const sensitive = os.sensitive ? `,"sensitive":true` : "";
    outputs.push(`${goJSONString(name)}:{"value":${v.value},"type":${marshalType(plain.type)}${sensitive}}`);
  }

  const resources: Array<{ sortKey: [string, string, string, string]; json: string }> = [];
  for (const ms of state.modules.values()) {
    for (const rs of ms.resources.values()) {
      const r = rs.addr.resource;
      const mode = modeString(r.mode);
      if (mode === undefined) {
        // Ephemeral resources live for one run only.
        continue;
      }
      const moduleStr = ms.addr.toString();
      const keyed = rs.hasProviderInstanceKeys();
      const cfg = rs.providerConfig;
      const insts: InstanceOut[] = [];
      for (const is of rs.instances.values()) {
        const objProvider = keyed && cfg ? cfg.instanceString(is.providerKey) : "";
        if (is.current) insts.push({ key: is.key, deposed: NotDeposed, json: instanceObjectJSON(rs, is.key, is.current, NotDeposed, objProvider, diags) });
        for (const [dk, obj] of is.deposed) insts.push({ key: is.key, deposed: dk, json: instanceObjectJSON(rs, is.key, obj, dk, objProvider, diags) });
      }
      insts.sort(compareInstanceOut);
      const f: string[] = [];
      if (moduleStr !== "") f.push(`"module":${goJSONString(moduleStr)}`);
      f.push(`"mode":${goJSONString(mode)}`, `"type":${goJSONString(r.type)}`, `"name":${goJSONString(r.name)}`);
      if (!keyed && cfg) f.push(`"provider":${goJSONString(cfg.toString())}`);
      f.push(`"instances":[${insts.map((i) => i.json).join(",")}]`);
      resources.push({ sortKey: [moduleStr, mode, r.type, r.name], json: `{${f.join(",")}}` });
    }
  }
  resources.sort((a, b) => {
    for (let i = 0; i < 4; i++) {
      const c = compareStrings(a.sortKey[i] as string, b.sortKey[i] as string);
      if (c !== 0) return c;
    }
    return 0;
  });

  const checks = encodeCheckResultsV4(state.checkResults);
  const top = [
    `"version":4`,
    `"terraform_version":${goJSONString(file.terraformVersion ?? "")}`,
    `"serial":${file.serial}`,
    `"lineage":${goJSONString(file.lineage)}`,
    `"outputs":{${outputs.join(",")}}`,
    `"resources":[${resources.map((r) => r.json).join(",")}]`,
    `"check_results":${checks}`,
  ];
  return { text: indentGo(`{${top.join(",")}}`) + "\n", diagnostics: diags };
}

function encodeCheckResultsV4(cr: CheckResults | undefined): string {
  if (!cr || cr.configResults.length === 0) return "null";
  const aggs = cr.configResults.map((a) => {
    const objects =
      a.objects.length === 0
        ? "null"
        : `[${a.objects
            .map((o) => {
              const fm = o.failureMessages.length > 0 ? `,"failure_messages":[${o.failureMessages.map(goJSONString).join(",")}]` : "";
              return `{"object_addr":${goJSONString(o.objectAddr)},"status":${goJSONString(o.status)}${fm}}`;
            })
            .join(",")}]`;
    return `{"object_kind":${goJSONString(a.objectKind)},"config_addr":${goJSONString(a.configAddr)},"status":${goJSONString(a.status)},"objects":${objects}}`;
  });
  return `[${aggs.join(",")}]`;
}

export type { StateV4 };
