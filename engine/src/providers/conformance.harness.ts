// The conformance harness for area "F" (OpenTofu cases 080–081: the tfplugin6 protocol and cty's
// msgpack encoding of values, unknowns included), used by scripts/conformance.mjs and by
// schema/schema.test.ts. Each case directory is read in place from ../shared/conformance: the
// lists and byte tables in its expect.md are parsed from the file, and the rules written there in
// prose are restated below as checks of got-versus-want. Case 080's client behaviours are checked
// against a real plugin process (plugin/testdata/plugin-server.ts: go-plugin handshake, AutoMTLS,
// tfplugin6 over a unix socket). Node-only, so it is not part of the providers public surface.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  BigFloat,
  BoolType,
  DynamicPseudoType,
  DynamicVal,
  False,
  NumberType,
  SENSITIVE,
  StringType,
  True,
  formatPath,
  fromHex,
  hex,
  listOf,
  listVal,
  mark,
  nullVal,
  numberFloatVal,
  numberIntVal,
  objectOf,
  objectVal,
  parseNumberVal,
  rawEquals,
  refine,
  setOf,
  setVal,
  stringVal,
  tupleOf,
  tupleVal,
  unknownVal,
  type Type,
  type Value,
} from "../values/index.js";
import { caseResult, check, harnessError, type CaseResult, type Check } from "../conformance.testkit.js";
import { show } from "../values/testutil.js";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE, launchProvider, pathFromProto, type PluginLogEntry } from "./plugin/index.js";
import { DEFAULT_CLIENT_CAPABILITIES } from "./provider.js";
import { pluginServices, type ProtoAttributePath, type ProtoDynamicValue } from "./proto/index.js";
import { decodeDynamicValue, encodeDynamicValue } from "./schema/index.js";

export type { CaseResult, Check } from "../conformance.testkit.js";

const te = (s: string): Uint8Array => new TextEncoder().encode(s);

/** The section of `md` after the line starting with `heading`, up to the next "## " heading. */
function section(md: string, heading: string): string {
  const start = md.indexOf(`\n${heading}`);
  if (start < 0) throw new Error(`expect.md has no "${heading}" section`);
  const rest = md.slice(start + heading.length + 1);
  const end = rest.search(/\n## /);
  return end < 0 ? rest : rest.slice(0, end);
}

/** A comma-separated list in prose, trailing period dropped, whitespace collapsed. */
function proseList(text: string): string[] {
  return text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/\.$/, "")
    .split(/,\s*/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

// ---------------------------------------------------------------------------------------------
// DynamicValue encoding (what travels in every request)

/** The msgpack bytes OpenTofu would send for `v` under schema type `t`, as spaced hex. */
function encHex(v: Value, t: Type): string {
  const r = encodeDynamicValue(v, t);
  if (!r.ok) return `error: ${r.error}`;
  return hex(r.value.msgpack ?? new Uint8Array());
}

/** The value decoded from msgpack bytes, rendered with its refinements, or the error. */
function decShow(bytes: string, t: Type): string {
  const r = decodeDynamicValue({ msgpack: fromHex(bytes) }, t);
  return r.ok ? show(r.value) : `error: ${r.error}`;
}

/** Decoding `bytes` gives back `v` exactly (refinements included). */
function roundTrips(v: Value, t: Type, bytes: string): boolean | string {
  const r = decodeDynamicValue({ msgpack: fromHex(bytes) }, t);
  if (!r.ok) return `error: ${r.error}`;
  return rawEquals(r.value, v) || show(r.value) === show(v) || `decoded ${show(r.value)}, want ${show(v)}`;
}

// The rows of case 081's table, by their text in the "value" column.
const TABLE_ROWS: Record<string, () => [Value, Type]> = {
  "unknown string, not null": () => [refine(unknownVal(StringType)).notNull().newValue(), StringType],
  'unknown string, not null, prefix "foo-"': () => [refine(unknownVal(StringType)).notNull().stringPrefixFull("foo-").newValue(), StringType],
  "unknown number, lower bound 0 inclusive": () => [refine(unknownVal(NumberType)).numberRangeLowerBound(BigFloat.fromInt(0), true).newValue(), NumberType],
  "unknown list(string), length >= 1": () => [refine(unknownVal(listOf(StringType))).collectionLengthLowerBound(1).newValue(), listOf(StringType)],
  "unknown bool, not null": () => [refine(unknownVal(BoolType)).notNull().newValue(), BoolType],
  "unknown string under a `dynamic` schema type": () => [unknownVal(StringType), DynamicPseudoType],
  "cty.DynamicVal under `dynamic`": () => [DynamicVal, DynamicPseudoType],
};

/** The table's rows as [label, bytes]. */
function tableRows(md: string): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  for (const line of md.split("\n")) {
    const m = /^\|(.+)\|(.+)\|\s*$/.exec(line);
    if (!m) continue;
    const label = (m[1] ?? "").trim();
    const bytes = /`([0-9a-f ]+)`/.exec(m[2] ?? "")?.[1];
    if (label === "value" || /^-+$/.test(label) || bytes === undefined) continue;
    rows.push([label, bytes]);
  }
  return rows;
}

/** A literal from the "Known values" bullets (`"hi"`, `300`, `1.5`) as a value and its type. */
function literal(text: string): [Value, Type] | undefined {
  if (text.startsWith('"')) {
    const s: unknown = JSON.parse(text);
    return typeof s === "string" ? [stringVal(s), StringType] : undefined;
  }
  const n = parseNumberVal(text);
  return n ? [n, NumberType] : undefined;
}

function case081(dir: string): Check[] {
  const md = readFileSync(path.join(dir, "expect.md"), "utf8");
  const checks: Check[] = [];

  // Known values: the inline examples `x` -> `bytes`, then the rules stated in prose.
  const known = section(md, "## Known values");
  const examples = [...known.matchAll(/`([^`]+)` -> `([0-9a-f ]+)`/g)].map((m) => [m[1] ?? "", m[2] ?? ""] as const);
  checks.push({ name: "081 known values: the inline examples were found", got: examples.length >= 5, want: true });
  for (const [text, bytes] of examples) {
    const lit = literal(text);
    checks.push(check(`081 known value ${text}`, bytes, () => (lit ? encHex(lit[0], lit[1]) : `no literal for ${text}`)));
    if (lit) checks.push(check(`081 known value ${text} decodes back`, true, () => roundTrips(lit[0], lit[1], bytes)));
  }
  const dynExample = /string "hi": `([0-9a-f ]+)`/.exec(known)?.[1];
  checks.push(
    check("081 null (any type)", ["c0", "c0", "c0"], () => [encHex(nullVal(StringType), StringType), encHex(nullVal(listOf(NumberType)), listOf(NumberType)), encHex(nullVal(DynamicPseudoType), DynamicPseudoType)]),
    check("081 bool", ["c2", "c3"], () => [encHex(False, BoolType), encHex(True, BoolType)]),
    check("081 number: not exact in float64 -> decimal string", "a3 30 2e 31", () => encHex(parseNumberVal("0.1") ?? nullVal(NumberType), NumberType)),
    check("081 number: beyond int64 and float64 -> decimal string", "b4 31 38 34 34 36 37 34 34 30 37 33 37 30 39 35 35 31 36 31 37", () =>
      encHex(parseNumberVal("18446744073709551617") ?? nullVal(NumberType), NumberType),
    ),
    check("081 number: +/-Inf -> float64 Inf", ["cb 7f f0 00 00 00 00 00 00", "cb ff f0 00 00 00 00 00 00"], () => [
      encHex(numberFloatVal(Infinity), NumberType),
      encHex(numberFloatVal(-Infinity), NumberType),
    ]),
    check("081 number: the decoder accepts int, float or string", ["1.5", "1.5", "1.5", "300"], () => [
      decShow("cb 3f f8 00 00 00 00 00 00", NumberType),
      decShow("ca 3f c0 00 00", NumberType),
      decShow("a3 31 2e 35", NumberType),
      decShow("cd 01 2c", NumberType),
    ]),
    check("081 list/set/tuple -> array (sets in cty order)", ["92 a1 61 a1 62", "92 01 02", "92 01 a1 78"], () => [
      encHex(listVal([stringVal("a"), stringVal("b")]), listOf(StringType)),
      encHex(setVal([numberIntVal(2), numberIntVal(1)]), setOf(NumberType)),
      encHex(tupleVal([numberIntVal(1), stringVal("x")]), tupleOf([NumberType, StringType])),
    ]),
    check("081 object -> map with string keys, every attribute, nulls included", "84 a1 61 a1 78 a1 64 c0 a1 6e 01 a4 74 61 67 73 92 a1 61 a1 62", () => {
      const t = objectOf({ a: StringType, n: NumberType, tags: setOf(StringType), d: DynamicPseudoType });
      return encHex(objectVal({ n: numberIntVal(1), a: stringVal("x"), tags: setVal([stringVal("b"), stringVal("a")]), d: nullVal(DynamicPseudoType) }), t);
    }),
    check("081 dynamic schema type: [bin(JSON type), value] (the example)", dynExample ?? "(example not found in expect.md)", () => encHex(stringVal("hi"), DynamicPseudoType)),
    check("081 marked values cannot be serialised", true, () => {
      const r = encodeDynamicValue(mark(stringVal("s"), SENSITIVE), StringType);
      return !r.ok && r.error.includes("value has marks, so it cannot be serialized");
    }),
  );

  // Unknown values: the byte table, every row understood, encoded and decoded back.
  const rows = tableRows(section(md, "## Unknown values"));
  checks.push({ name: "081 unknown values: table rows", got: rows.length, want: Object.keys(TABLE_ROWS).length });
  for (const [label, bytes] of rows) {
    const make = TABLE_ROWS[label];
    if (!make) {
      checks.push({ name: `081 table row "${label}"`, got: "row not understood by the harness", want: bytes });
      continue;
    }
    checks.push(
      check(`081 table: ${label}`, bytes, () => encHex(...make())),
      check(`081 table: ${label} decodes back`, true, () => roundTrips(...make(), bytes)),
    );
  }
  checks.push(
    check("081 wholly unknown (no refinements)", "d4 00 00", () => encHex(unknownVal(StringType), StringType)),
    check("081 cty.DynamicVal is always d4 00 00, even refined", "d4 00 00", () => encHex(refine(DynamicVal).notNull().newValue(), DynamicPseudoType)),
    check("081 nothing to encode (length >= 0) falls back to d4 00 00", "d4 00 00", () =>
      encHex(refine(unknownVal(listOf(StringType))).collectionLengthLowerBound(0).newValue(), listOf(StringType)),
    ),
    check("081 a 4-byte payload uses fixext4 (length >= 200)", "d6 0c 81 05 cc c8", () =>
      encHex(refine(unknownVal(listOf(StringType))).collectionLengthLowerBound(200).newValue(), listOf(StringType)),
    ),
    check("081 entry order: nullness, then the type-specific keys", "c7 07 0c 83 01 c2 05 02 06 05", () =>
      encHex(refine(unknownVal(listOf(StringType))).notNull().collectionLengthLowerBound(2).collectionLengthUpperBound(5).newValue(), listOf(StringType)),
    ),
    check("081 a long prefix is truncated below 256 bytes on a character boundary", [true, true], () =>
      ["a".repeat(300), "é".repeat(200)].map((full) => {
        const v = refine(unknownVal(StringType)).stringPrefixFull(full).newValue();
        const r = encodeDynamicValue(v, StringType);
        if (!r.ok) return r.error;
        const back = decodeDynamicValue(r.value, StringType);
        if (!back.ok || back.value.kind !== "unknown") return "did not decode to an unknown";
        const p = back.value.refinement.stringPrefix ?? "";
        const len = te(p).length;
        return full.startsWith(p) && len < 256 && len >= 250;
      }),
    ),
  );

  // Decoding rules.
  checks.push(
    check("081 decode: an extension with payload <= 1 is wholly unknown (type code ignored)", ["unknown(number)", "unknown(string)"], () => [
      decShow("d4 05 00", NumberType),
      decShow("d4 00 00", StringType),
    ]),
    check("081 decode: payload > 1 needs type 12", "error: unsupported extension type 0x05 with len 2", () => decShow("c7 02 05 00 00", StringType)),
    check("081 decode: payload > 1024 bytes", "error: oversize unknown value refinement", () =>
      decShow(`c8 04 01 0c ${"00 ".repeat(1025).trim()}`, StringType),
    ),
    check("081 decode: unknown refinement keys are ignored", "unknown(string)!", () => decShow("c7 05 0c 82 01 c2 63 c3", StringType)),
    check("081 decode: refinements", ['unknown(string)! prefix="foo-"', "unknown(number) >=0", "unknown(list(string)) len>=1"], () => [
      decShow("c7 09 0c 82 01 c2 02 a4 66 6f 6f 2d", StringType),
      decShow("c7 05 0c 81 03 92 00 c3", NumberType),
      decShow("c7 03 0c 81 05 01", listOf(StringType)),
    ]),
  );
  return checks;
}

// ---------------------------------------------------------------------------------------------
// tfplugin6

/** The RPC names in a prose list, "Open/Renew/CloseEphemeralResource" expanded. */
function rpcNames(items: readonly string[]): Array<{ name: string; stream?: string }> {
  const out: Array<{ name: string; stream?: string }> = [];
  for (const item of items) {
    const m = /^([A-Za-z/]+)(?: \(([a-z-]+)\))?$/.exec(item);
    if (!m) throw new Error(`cannot read the RPC "${item}"`);
    const [, name = "", stream] = m;
    const slash = /^((?:[A-Z][a-z]+\/)+)([A-Z][a-z]+)(.*)$/.exec(name);
    const names = slash ? [...(slash[1] ?? "").split("/").filter(Boolean), slash[2] ?? ""].map((verb) => verb + (slash[3] ?? "")) : [name];
    for (const n of names) out.push(stream ? { name: n, stream } : { name: n });
  }
  return out;
}

/** The "Not used" categories of case 080, as predicates on RPC names. */
const NOT_USED_CATEGORIES: Record<string, (rpc: string) => boolean> = {
  "List*": (rpc) => /List/.test(rpc),
  "state-store RPCs": (rpc) =>
    ["ValidateStateStoreConfig", "ConfigureStateStore", "ReadStateBytes", "WriteStateBytes", "LockState", "UnlockState", "GetStates", "DeleteState"].includes(rpc),
  "Action RPCs": (rpc) => /Action/.test(rpc),
};

function streamKind(requestStream: boolean, responseStream: boolean): string | undefined {
  if (requestStream && responseStream) return "bidi-stream";
  if (requestStream) return "client-stream";
  if (responseStream) return "server-stream";
  return undefined;
}

function wire(method: string, which: "req" | "res", msg: object): string {
  const def = pluginServices().provider6.service[method];
  if (!def) throw new Error(`no ${method} in tfplugin6`);
  return hex(new Uint8Array(which === "req" ? def.requestSerialize(msg) : def.responseSerialize(msg)));
}

function decodeShow(dv: ProtoDynamicValue | null | undefined, t: Type): string {
  const r = decodeDynamicValue(dv, t);
  return r.ok ? show(r.value) : `error: ${r.error}`;
}

function case080Static(dir: string): Check[] {
  const md = readFileSync(path.join(dir, "expect.md"), "utf8");
  const svc = pluginServices().provider6.service;
  const defined = Object.keys(svc);

  const all = /Service `Provider` RPCs \((\d+)\):\n([\s\S]*?)\n\n/.exec(md);
  const called = /RPCs the OpenTofu client actually calls[^:]*:([\s\S]*?)\nNot used:([^\n]*)/.exec(md);
  if (!all || !called) throw new Error("expect.md: the RPC lists were not found");
  const upstream = rpcNames(proseList(all[2] ?? ""));
  const upstreamNames = upstream.map((r) => r.name);
  const calledNames = rpcNames(proseList(called[1] ?? "")).map((r) => r.name);
  const notUsed = proseList(called[2] ?? "");
  const isNotUsed = (rpc: string): boolean => notUsed.some((item) => item === rpc || NOT_USED_CATEGORIES[item]?.(rpc) === true);
  const cookie = /`(TF_PLUGIN_MAGIC_COOKIE=[0-9a-f]+)`/.exec(md)?.[1];

  return [
    { name: "080 the service lists as many RPCs as it says", got: upstream.length, want: Number(all[1]) },
    { name: "080 every RPC defined here is upstream's", got: defined.filter((n) => !upstreamNames.includes(n)), want: [] },
    { name: "080 every RPC the OpenTofu client calls is defined", got: calledNames.filter((n) => !defined.includes(n)), want: [] },
    { name: "080 the client calls 21 RPCs", got: calledNames.length, want: 21 },
    {
      name: "080 RPCs left out are only ones the client never calls",
      got: upstreamNames.filter((n) => !defined.includes(n) && !isNotUsed(n)),
      want: [],
    },
    { name: "080 the Not used categories are all understood", got: notUsed.filter((i) => !upstreamNames.includes(i) && !NOT_USED_CATEGORIES[i]), want: [] },
    {
      name: "080 streaming kinds match upstream",
      got: defined.map((n) => `${n}: ${streamKind(svc[n]?.requestStream === true, svc[n]?.responseStream === true) ?? "unary"}`),
      want: defined.map((n) => `${n}: ${upstream.find((r) => r.name === n)?.stream ?? "unary"}`),
    },
    { name: "080 handshake magic cookie", got: `${MAGIC_COOKIE_KEY}=${MAGIC_COOKIE_VALUE}`, want: cookie ?? "(cookie not found in expect.md)" },
    {
      name: "080 ClientCapabilities: write-only attributes allowed, deferral not",
      got: { ...DEFAULT_CLIENT_CAPABILITIES },
      want: { deferralAllowed: false, writeOnlyAttributesAllowed: true },
    },
    // Field numbers are upstream's (tfplugin6.10), checked through real protobuf serialisation.
    check("080 ValidateProviderConfig.Response.diagnostics = 2", "12 03 12 01 78", () => wire("ValidateProviderConfig", "res", { diagnostics: [{ summary: "x" }] })),
    check("080 PlanResourceChange.Request: prior_state 2, proposed_new_state 3, config 4", "12 03 0a 01 c0 1a 03 0a 01 c0 22 03 0a 01 c0", () =>
      wire("PlanResourceChange", "req", { prior_state: { msgpack: [0xc0] }, proposed_new_state: { msgpack: [0xc0] }, config: { msgpack: [0xc0] } }),
    ),
    check("080 PlanResourceChange.Response: planned_state 1, requires_replace 2, planned_private 3, diagnostics 4", "0a 03 0a 01 c0 12 05 0a 03 0a 01 61 1a 01 01 22 03 12 01 64", () =>
      wire("PlanResourceChange", "res", { planned_state: { msgpack: [0xc0] }, requires_replace: [{ steps: [{ attribute_name: "a" }] }], planned_private: [1], diagnostics: [{ summary: "d" }] }),
    ),
    check("080 ApplyResourceChange.Request: prior_state 2, planned_state 3, config 4 (json = 2)", "12 03 12 01 7b 1a 03 12 01 7b 22 03 12 01 7b", () =>
      wire("ApplyResourceChange", "req", { prior_state: { json: [0x7b] }, planned_state: { json: [0x7b] }, config: { json: [0x7b] } }),
    ),
    check("080 ApplyResourceChange.Response: new_state 1, private 2, diagnostics 3", "0a 03 0a 01 c0 12 01 02 1a 03 12 01 64", () =>
      wire("ApplyResourceChange", "res", { new_state: { msgpack: [0xc0] }, private: [2], diagnostics: [{ summary: "d" }] }),
    ),
    check("080 ConfigureProvider.Request.client_capabilities = 3, write_only_attributes_allowed = 2", "0a 01 31 1a 02 10 01", () =>
      wire("ConfigureProvider", "req", { terraform_version: "1", client_capabilities: { write_only_attributes_allowed: true } }),
    ),
    check("080 Schema.Attribute.write_only = 11", "0a 09 12 07 12 05 0a 01 70 58 01", () =>
      wire("GetProviderSchema", "res", { provider: { block: { attributes: [{ name: "p", write_only: true }] } } }),
    ),
    // DynamicValue: sent as msgpack; received as msgpack, else json, else a null of the type.
    check("080 DynamicValue is always sent as msgpack", { msgpack: "a2 68 69", json: false }, () => {
      const r = encodeDynamicValue(stringVal("hi"), StringType);
      if (!r.ok) return r.error;
      return { msgpack: hex(r.value.msgpack ?? new Uint8Array()), json: r.value.json !== undefined && r.value.json !== null && r.value.json.length > 0 };
    }),
    check("080 DynamicValue decoding prefers msgpack, falls back to json", ['"m"', '"j"', "object{a: 1}"], () => [
      decodeShow({ msgpack: fromHex("a1 6d"), json: te('"j"') }, StringType),
      decodeShow({ json: te('"j"') }, StringType),
      decodeShow({ json: te('{"a":1}') }, objectOf({ a: NumberType })),
    ]),
    check("080 an absent DynamicValue is a null of the expected type", ["null(object({a=number}))", "null(object({a=number}))", "null(object({a=number}))", "null(string)"], () => [
      decodeShow(null, objectOf({ a: NumberType })),
      decodeShow(undefined, objectOf({ a: NumberType })),
      decodeShow({}, objectOf({ a: NumberType })),
      decodeShow({ msgpack: new Uint8Array(), json: new Uint8Array() }, StringType),
    ]),
    check("080 RequiresReplace: AttributePath steps (attribute_name / element_key_string / element_key_int)", ['.tags["k"]', ".disks[2].size"], () => {
      const def = pluginServices().provider6.service["PlanResourceChange"];
      if (!def) throw new Error("no PlanResourceChange");
      const bytes = def.responseSerialize({
        requires_replace: [
          { steps: [{ attribute_name: "tags" }, { element_key_string: "k" }] },
          { steps: [{ attribute_name: "disks" }, { element_key_int: 2 }, { attribute_name: "size" }] },
        ],
      });
      const back = def.responseDeserialize(bytes) as { requires_replace?: ProtoAttributePath[] };
      return (back.requires_replace ?? []).map((p) => formatPath(pathFromProto(p)));
    }),
  ];
}

/** Whether `cond` holds within five seconds. */
async function eventually(cond: () => boolean): Promise<boolean> {
  for (const end = Date.now() + 5_000; !cond(); ) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** Case 080's client behaviours against the test plugin, a real tfplugin6 process. */
async function case080Plugin(): Promise<Check[]> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const logs: PluginLogEntry[] = [];
  const launched = await launchProvider({
    command: process.execPath,
    args: ["--import", createRequire(import.meta.url).resolve("tsx/esm"), path.join(here, "plugin", "testdata", "plugin-server.ts")],
    env: {},
    name: "terraform-provider-test",
    handshakeTimeoutMs: 30_000,
    logSink: (e) => logs.push(e),
  });
  if (!launched.ok) return [{ name: "080 the test plugin starts (magic cookie accepted)", got: launched.diagnostics.map((d) => `${d.summary}: ${d.detail}`), want: [] }];
  const provider = launched.provider;
  try {
    const checks: Check[] = [{ name: "080 the test plugin handshakes on protocol 6", got: provider.client.protocolVersion, want: 6 }];
    const schema = await provider.getProviderSchema();
    checks.push({ name: "080 the test plugin lacks plan_destroy", got: schema.serverCapabilities.planDestroy, want: false });

    const configured = await provider.configureProvider({ terraformVersion: "1.11.0", config: objectVal({ region: stringVal("eu") }) });
    // The plugin logs on stderr, a pipe that may be read after the answer arrives on the socket.
    const logged = await eventually(() => logs.some((l) => l.line === "configured with terraform_version=1.11.0 write_only=true"));
    checks.push({
      name: "080 ConfigureProvider sends write_only_attributes_allowed = true",
      got: { diagnostics: configured.diagnostics, logged },
      want: { diagnostics: [], logged: true },
    });

    const thing = (input: string, id: Value): Value => objectVal({ id, input: stringVal(input), output: stringVal(input) });
    const prior = thing("a", stringVal("x1"));
    const changed = thing("b", stringVal("x1"));
    const replan = await provider.planResourceChange({ typeName: "test_thing", priorState: prior, proposedNewState: changed, config: changed });
    checks.push({ name: "080 RequiresReplace from the plugin", got: replan.requiresReplace.map(formatPath), want: [".input"] });

    // The plugin would answer a destroy with its own (empty) planned_private: getting the prior
    // private back shows the request was never sent.
    const priorPrivate = te("prior-private");
    const destroy = await provider.planResourceChange({ typeName: "test_thing", priorState: prior, proposedNewState: nullVal(prior.type), config: nullVal(prior.type), priorPrivate });
    checks.push({
      name: "080 a destroy is planned by the client when plan_destroy is false (not sent)",
      got: { planned: show(destroy.plannedState), plannedPrivate: new TextDecoder().decode(destroy.plannedPrivate), diagnostics: destroy.diagnostics },
      want: { planned: show(nullVal(prior.type)), plannedPrivate: "prior-private", diagnostics: [] },
    });
    return checks;
  } catch (e) {
    return [{ name: "080 plugin behaviours", got: `threw: ${e instanceof Error ? e.message : String(e)}`, want: "no exception" }];
  } finally {
    await provider.close();
  }
}

/** The checks for one case directory, or undefined when this harness does not handle the case. */
export async function protocolCaseChecks(dir: string): Promise<Check[] | undefined> {
  switch (path.basename(dir).slice(0, 3)) {
    case "080":
      return [...case080Static(dir), ...(await case080Plugin())];
    case "081":
      return case081(dir);
    default:
      return undefined;
  }
}

/** Runs one case directory: ok when every check's got deep-equals its want. */
export async function runProtocolCase(dir: string): Promise<CaseResult> {
  let checks: Check[] | undefined;
  try {
    checks = await protocolCaseChecks(dir);
  } catch (e) {
    return harnessError(e);
  }
  return caseResult("protocol", dir, checks);
}
