// The backends `init` can configure (`local`, the default, `http` and `terrace`), their configuration
// decoded from the `backend` block plus `-backend-config` options, and the backend state file
// `.terraform/terraform.tfstate` that records what was configured, in OpenTofu's format
// (legacy.State v3 with a `backend` object: type, config as JSON, hash). The hash is cty's
// Value.Hash of ("type", config) as configs.Backend.Hash computes it, so the file agrees with
// tofu's byte for byte.
import { readFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dataDir, decodeBackendConfig as staticDecodeBackendConfig, decodeStaticBlock, type Backend, type ConfigBody, type StaticBlockSchema, type StaticEvaluator } from "../configs/index.js";
import { errorDiag, hasErrors, parseConfig, nativeBody, type Diagnostic } from "../hcl/index.js";
import { EvalContext, evaluateAny } from "../lang/eval/index.js";
import {
  BoolType,
  NumberType,
  boolVal,
  mapVal,
  mapValEmpty,
  StringType,
  convert,
  formatPathError,
  goQuote,
  mapOf,
  nullVal,
  parseNumberVal,
  stringVal,
  type Type,
  type Value,
} from "../values/index.js";

/** `<data dir>/terraform.tfstate`: the backend the working directory was initialised with. */
export function backendStateFile(): string {
  return path.join(dataDir(), "terraform.tfstate");
}

interface BackendSchema {
  /** Attribute name → type; every attribute is optional for hashing, as in OpenTofu. */
  readonly attributes: ReadonlyMap<string, Type>;
  /** Attributes that must be set once overrides are merged in. */
  readonly required: readonly string[];
}

const BACKENDS: ReadonlyMap<string, BackendSchema> = new Map<string, BackendSchema>([
  [
    "local",
    {
      attributes: new Map<string, Type>([
        ["path", StringType],
        ["workspace_dir", StringType],
      ]),
      required: [],
    },
  ],
  [
    "http",
    {
      attributes: new Map<string, Type>([
        ["address", StringType],
        ["update_method", StringType],
        ["lock_address", StringType],
        ["unlock_address", StringType],
        ["lock_method", StringType],
        ["unlock_method", StringType],
        ["username", StringType],
        ["password", StringType],
        ["skip_cert_verification", BoolType],
        ["retry_max", NumberType],
        ["retry_wait_min", NumberType],
        ["retry_wait_max", NumberType],
        ["client_ca_certificate_pem", StringType],
        ["client_certificate_pem", StringType],
        ["client_private_key_pem", StringType],
        ["headers", mapOf(StringType)],
      ]),
      required: ["address"],
    },
  ],
  [
    // Terrace's own server (terrace_backend.ts): the http backend's API with a bearer token.
    "terrace",
    {
      attributes: new Map<string, Type>([
        ["address", StringType],
        ["organization", StringType],
        ["workspace", StringType],
        ["workspace_prefix", StringType],
        ["token", StringType],
        ["retry_max", NumberType],
        ["retry_wait_min", NumberType],
        ["retry_wait_max", NumberType],
      ]),
      required: ["address", "organization"],
    },
  ],
]);

/** OpenTofu's backends that Terrace does not implement (named in the error). */
const KNOWN_UNSUPPORTED = new Set(["remote", "azurerm", "consul", "cos", "gcs", "kubernetes", "oss", "pg", "s3", "oci"]);

export function backendSupported(type: string): boolean {
  return BACKENDS.has(type);
}

/** The decoded configuration: every schema attribute, null when unset, sorted by name. */
export type BackendConfigValue = Map<string, Value>;

function sortedNames(schema: BackendSchema): string[] {
  return [...schema.attributes.keys()].sort();
}

const NO_CONTEXT = new EvalContext(undefined, undefined);

/** The schema as static evaluation reads it, every argument optional (what Backend.Hash decodes). */
function staticSchema(schema: BackendSchema): StaticBlockSchema {
  return { attributes: new Map([...schema.attributes].map(([name, type]) => [name, { type, required: false }])), blockTypes: new Map() };
}

/**
 * Decodes one body against the backend schema with static evaluation (variables, locals, path.*,
 * terraform.workspace and functions may be used; the subject errors name is `backend.<type>`),
 * setting the arguments the body gives.
 */
function decodeBody(
  backend: Backend,
  body: ConfigBody,
  schema: BackendSchema,
  evaluator: StaticEvaluator,
  into: BackendConfigValue,
  whole: boolean,
): Diagnostic[] {
  const ident = { module: [], subject: `backend.${backend.type}`, declRange: backend.declRange };
  const r = whole ? staticDecodeBackendConfig({ ...backend, config: body }, evaluator, staticSchema(schema)) : decodeStaticBlock(evaluator, body, staticSchema(schema), ident);
  if (hasErrors(r.diagnostics) || r.value.kind !== "object") return r.diagnostics;
  for (const [name, v] of r.value.attrs) {
    // An override file sets only what it names; the block itself sets (or nulls) everything.
    if (whole || v.kind !== "null") into.set(name, v);
  }
  return r.diagnostics;
}

export interface BackendConfigResult {
  /** The configuration without the command-line overrides (what the hash covers). */
  readonly base: BackendConfigValue;
  /** With the `-backend-config` overrides merged in (what is stored). */
  readonly merged: BackendConfigValue;
  readonly diagnostics: Diagnostic[];
  /** Text of override files read, for snippets. */
  readonly sources: Map<string, string>;
}

/** Every argument of the backend type's schema, null. */
export function emptyBackendConfig(type: string): BackendConfigValue {
  const schema = BACKENDS.get(type);
  return schema ? emptyConfig(schema) : new Map();
}

function emptyConfig(schema: BackendSchema): BackendConfigValue {
  const out: BackendConfigValue = new Map();
  for (const name of sortedNames(schema)) out.set(name, nullVal(schema.attributes.get(name) as Type));
  return out;
}

/**
 * The backend's configuration from its block (evaluated statically by `evaluator`, the root
 * module's) and the `-backend-config` options, in order: a `key=value` item sets one argument
 * (parsed by the argument's type, as configValueFromCLI does); any other item names a file of
 * `key = value` lines.
 */
export function decodeBackendConfig(
  backend: Backend,
  evaluator: StaticEvaluator,
  overrides: readonly string[],
  readFile: (p: string) => string | undefined,
): BackendConfigResult {
  const schema = BACKENDS.get(backend.type) as BackendSchema;
  const base = emptyConfig(schema);
  const diagnostics = decodeBody(backend, backend.config, schema, evaluator, base, true);
  const merged = new Map(base);
  const sources = new Map<string, string>();
  if (overrides.length === 1 && overrides[0] === "") {
    // `-backend-config=''` removes every override.
    return { base, merged, diagnostics, sources };
  }
  for (const item of overrides) {
    const eq = item.indexOf("=");
    if (eq < 0) {
      const text = readFile(item);
      if (text === undefined) {
        diagnostics.push(errorDiag("Failed to read file", `The file ${goQuote(item)} could not be read.`));
        continue;
      }
      sources.set(item, text);
      const parsed = parseConfig(text, item);
      diagnostics.push(...parsed.diagnostics);
      if (parsed.diagnostics.some((d) => d.severity === "error")) continue;
      diagnostics.push(...decodeBody(backend, nativeBody(parsed.result.body), schema, evaluator, merged, false));
      continue;
    }
    const name = item.slice(0, eq);
    const raw = item.slice(eq + 1);
    const want = schema.attributes.get(name);
    if (!want) {
      diagnostics.push(
        errorDiag(
          "Invalid backend configuration argument",
          `The backend configuration argument ${goQuote(name)} given on the command line is not expected for the selected backend type.`,
        ),
      );
      continue;
    }
    const v = valueFromCLI(item, raw, want);
    if (typeof v === "string") {
      diagnostics.push(errorDiag("Invalid backend configuration value", `The value for ${name} is not valid: ${v}.`));
      continue;
    }
    merged.set(name, v);
  }
  return { base, merged, diagnostics, sources };
}

/**
 * The arguments the backend requires, checked once the `-backend-config` overrides are merged in
 * (init); other commands compare the block with what init recorded and do not need them all.
 */
export function missingRequiredArguments(backend: Backend, merged: BackendConfigValue): Diagnostic[] {
  const schema = BACKENDS.get(backend.type);
  const diagnostics: Diagnostic[] = [];
  for (const name of schema?.required ?? []) {
    const v = merged.get(name);
    if (!v || v.kind === "null") {
      diagnostics.push(errorDiag("Missing required argument", `The argument ${goQuote(name)} is required, but was not set.`, backend.declRange));
    }
  }
  return diagnostics;
}

/** configValueFromCLI: a primitive from its text; anything else as an HCL expression. */
function valueFromCLI(_item: string, raw: string, want: Type): Value | string {
  if (want.kind === "string") return stringVal(raw);
  if (want.kind === "number" || want.kind === "bool") {
    const c = convert(stringVal(raw), want);
    if (!c.ok) return formatPathError(c.error);
    return c.value;
  }
  const parsed = parseConfig(`v = ${raw}`, "<backend-config>");
  const attr = parsed.result.body.attributes[0];
  if (parsed.diagnostics.some((d) => d.severity === "error") || !attr) return "invalid expression syntax";
  const r = evaluateAny(attr.expr, NO_CONTEXT);
  if (r.diagnostics.some((d) => d.severity === "error")) return r.diagnostics[0]?.summary ?? "invalid value";
  const c = convert(r.value, want);
  return c.ok ? c.value : formatPathError(c.error);
}

export function unsupportedBackendDiagnostic(backend: Backend): Diagnostic {
  if (backend.type === "cloud") {
    return errorDiag(
      "Unsupported backend type",
      `There is no explicit backend type named ${goQuote(backend.type)}. To configure cloud backend, declare a 'cloud' block instead.`,
      backend.typeRange,
    );
  }
  const detail = KNOWN_UNSUPPORTED.has(backend.type)
    ? `There is no backend type named ${goQuote(backend.type)} in Terrace: the supported backends are "local", "http" and "terrace".`
    : `There is no backend type named ${goQuote(backend.type)}.`;
  return errorDiag("Unsupported backend type", detail, backend.typeRange);
}

// ---- cty's Value.Hash ----

/** cty's makeSetHashBytes for the values a backend configuration holds. */
function hashText(v: Value): string {
  switch (v.kind) {
    case "unknown":
      return "?";
    case "null":
      return "~";
    case "string":
      return goQuote(v.value);
    case "bool":
      return v.value ? "T" : "F";
    case "number":
      return v.value.text("g", 10);
    case "map":
      return `{${[...v.attrs.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, e]) => `${goQuote(k)}:${hashText(e)};`)
        .join("")}}`;
    case "object":
      return `<${[...v.attrs.keys()]
        .sort()
        .map((k) => `${hashText(v.attrs.get(k) as Value)};`)
        .join("")}>`;
    case "list":
    case "set":
      return `[${v.elements.map((e) => `${hashText(e)};`).join("")}]`;
    case "tuple":
      return `<${v.elements.map((e) => `${hashText(e)};`).join("")}>`;
  }
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** configs.Backend.Hash: crc32 of the hash text of the tuple (type, config). */
export function backendConfigHash(type: string, config: BackendConfigValue): number {
  const obj = `<${[...config.keys()]
    .sort()
    .map((k) => `${hashText(config.get(k) as Value)};`)
    .join("")}>`;
  return crc32(Buffer.from(`<${goQuote(type)};${obj};>`, "utf8"));
}

// ---- JSON as Go writes it ----

/** encoding/json escapes <, > and & (and U+2028/2029) in strings; JSON.stringify does not. */
export function goJSONEscape(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${(c.codePointAt(0) as number).toString(16).padStart(4, "0")}`);
}

type JSONData = null | boolean | number | string | JSONData[] | { [k: string]: JSONData };

function valueToJSONData(v: Value): JSONData {
  switch (v.kind) {
    case "null":
    case "unknown":
      return null;
    case "string":
      return v.value;
    case "bool":
      return v.value;
    case "number":
      return Number(v.value.text("g", 17));
    case "map":
    case "object": {
      const out: { [k: string]: JSONData } = {};
      for (const k of [...v.attrs.keys()].sort()) out[k] = valueToJSONData(v.attrs.get(k) as Value);
      return out;
    }
    case "list":
    case "set":
    case "tuple":
      return v.elements.map(valueToJSONData);
  }
}

function configFromJSONData(type: string, data: unknown): BackendConfigValue | undefined {
  const schema = BACKENDS.get(type);
  if (!schema || typeof data !== "object" || data === null) return undefined;
  const out = emptyConfig(schema);
  for (const [k, raw] of Object.entries(data as Record<string, unknown>)) {
    const want = schema.attributes.get(k);
    if (!want || raw === null) continue;
    if (typeof raw === "string") out.set(k, stringVal(raw));
    else if (typeof raw === "boolean") out.set(k, boolVal(raw));
    else if (typeof raw === "number") out.set(k, parseNumberVal(String(raw)) ?? nullVal(want));
    else if (typeof raw === "object") {
      const entries = Object.entries(raw as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === "string");
      out.set(k, entries.length === 0 ? mapValEmpty(StringType) : mapVal(new Map(entries.map(([n, v]) => [n, stringVal(v)]))));
    }
  }
  return out;
}

export interface BackendState {
  readonly type: string;
  readonly config: BackendConfigValue;
  /** The raw `config` JSON, for backends Terrace does not know. */
  readonly rawConfig: unknown;
  readonly hash: number;
}

/** Reads `.terraform/terraform.tfstate`; undefined when there is none (or no backend in it). */
export function readBackendState(workingDir: string): { state: BackendState | undefined; diagnostics: Diagnostic[] } {
  let text: string;
  try {
    text = readFileSync(path.resolve(workingDir, backendStateFile()), "utf8");
  } catch {
    return { state: undefined, diagnostics: [] };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return {
      state: undefined,
      diagnostics: [errorDiag("Failed to load state", `Error reading ${backendStateFile()}: ${e instanceof Error ? e.message : String(e)}`)],
    };
  }
  const backend = typeof data === "object" && data !== null ? (data as { backend?: unknown }).backend : undefined;
  if (typeof backend !== "object" || backend === null) return { state: undefined, diagnostics: [] };
  const b = backend as { type?: unknown; config?: unknown; hash?: unknown };
  const type = typeof b.type === "string" ? b.type : "";
  if (type === "") return { state: undefined, diagnostics: [] };
  const config = configFromJSONData(type, b.config) ?? new Map<string, Value>();
  return { state: { type, config, rawConfig: b.config ?? null, hash: typeof b.hash === "number" ? b.hash : 0 }, diagnostics: [] };
}

/** Writes the backend state file as OpenTofu does (2-space indent, no trailing newline). */
export function writeBackendState(workingDir: string, type: string, config: BackendConfigValue, hash: number, version: string): Diagnostic[] {
  const configData: { [k: string]: JSONData } = {};
  for (const k of [...config.keys()].sort()) configData[k] = valueToJSONData(config.get(k) as Value);
  const doc = { version: 3, terraform_version: version, backend: { type, config: configData, hash } };
  const file = path.resolve(workingDir, backendStateFile());
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, goJSONEscape(JSON.stringify(doc, null, 2)), { mode: 0o644 });
    return [];
  } catch (e) {
    return [errorDiag("Failed to save backend configuration", `Error writing ${backendStateFile()}: ${e instanceof Error ? e.message : String(e)}`)];
  }
}

/** Two configurations are the same when every attribute has the same JSON value. */
export function backendConfigsEqual(a: BackendConfigValue, b: BackendConfigValue): boolean {
  const ja: { [k: string]: JSONData } = {};
  const jb: { [k: string]: JSONData } = {};
  for (const k of [...a.keys()].sort()) ja[k] = valueToJSONData(a.get(k) as Value);
  for (const k of [...b.keys()].sort()) jb[k] = valueToJSONData(b.get(k) as Value);
  return JSON.stringify(ja) === JSON.stringify(jb);
}
