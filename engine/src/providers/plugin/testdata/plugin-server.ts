// A tiny test-only provider plugin: go-plugin handshake, AutoMTLS, tfplugin6 (or 5 when
// TEST_PLUGIN_PROTOCOL=5) over a unix socket (or TCP when TEST_PLUGIN_NETWORK=tcp). Run with
// `node --import tsx plugin-server.ts`. TEST_PLUGIN_MODE picks a misbehaviour for the tests:
//   normal | garbage (not a handshake) | hang (no handshake) | exit-early | plaintext (no TLS)
//   crash-on-apply (dies mid-ApplyResourceChange with a panic on stderr)
// and the test_echo data source answers input "fail" with a gRPC error (INTERNAL).
// The real provider server is engine/src/sdk; this file only exercises the client.

import * as grpc from "@grpc/grpc-js";
import { randomBytes } from "node:crypto";
import { existsSync, unlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  StringType,
  asString,
  isKnown,
  nullVal,
  objectVal,
  stringVal,
  unknownVal,
  type Value,
} from "../../../values/index.js";
import { pluginServices } from "../../proto/index.js";
import type { ProtoDynamicValue } from "../../proto/types.js";
import {
  attribute,
  block,
  decodeDynamicValue,
  encodeDynamicValue,
  functionToProto,
  impliedType,
  schemaToProto,
  type Schema,
} from "../../schema/index.js";
import { generateCertificate, pemToDer } from "../certs.js";

const MODE = process.env["TEST_PLUGIN_MODE"] ?? "normal";
const PROTOCOL = process.env["TEST_PLUGIN_PROTOCOL"] === "5" ? 5 : 6;

const thingSchema: Schema = {
  version: 1,
  block: block({
    id: attribute({ type: StringType, computed: true }),
    input: attribute({ type: StringType, optional: true }),
    output: attribute({ type: StringType, computed: true }),
  }),
};
const echoSchema: Schema = {
  version: 0,
  block: block({ input: attribute({ type: StringType, required: true }), output: attribute({ type: StringType, computed: true }) }),
};
const providerSchema: Schema = { version: 0, block: block({ region: attribute({ type: StringType, optional: true }) }) };

function dec(dv: ProtoDynamicValue | null | undefined, s: Schema): Value {
  const r = decodeDynamicValue(dv, impliedType(s.block));
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

function enc(v: Value, s: Schema): ProtoDynamicValue {
  const r = encodeDynamicValue(v, impliedType(s.block));
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

function attr(v: Value, name: string): Value {
  if (v.kind !== "object") return nullVal(StringType);
  return v.attrs.get(name) ?? nullVal(StringType);
}

type Handler = (req: Record<string, unknown>) => Promise<object> | object;

let configuredRegion = "";
let stopCalls = 0;
let pendingStop: (() => void) | undefined;

const handlers: Record<string, Handler> = {
  GetProviderSchema: () => ({
    provider: schemaToProto(providerSchema, PROTOCOL),
    resource_schemas: { test_thing: schemaToProto(thingSchema, PROTOCOL) },
    data_source_schemas: { test_echo: schemaToProto(echoSchema, PROTOCOL) },
    server_capabilities: { plan_destroy: false, get_provider_schema_optional: true, move_resource_state: false },
    functions: {
      upper: functionToProto({
        parameters: [{ name: "s", type: StringType, allowNullValue: false, allowUnknownValues: false, description: "", descriptionKind: "plain" }],
        returnType: StringType,
        summary: "upper-cases",
        description: "",
        descriptionKind: "plain",
      }),
    },
    diagnostics: [{ severity: "WARNING", summary: "schema warning", detail: "just so you know" }],
  }),
  ValidateProviderConfig: (req) => {
    const cfg = dec(req["config"] as ProtoDynamicValue, providerSchema);
    const region = attr(cfg, "region");
    if (region.kind === "string" && region.value === "bad") {
      return { diagnostics: [{ severity: "ERROR", summary: "Invalid region", detail: "no such region", attribute: { steps: [{ attribute_name: "region" }] } }] };
    }
    return { diagnostics: [] };
  },
  ConfigureProvider: (req) => {
    const cfg = dec(req["config"] as ProtoDynamicValue, providerSchema);
    const region = attr(cfg, "region");
    configuredRegion = region.kind === "string" ? region.value : "";
    process.stderr.write(`configured with terraform_version=${String(req["terraform_version"])} write_only=${String((req["client_capabilities"] as Record<string, unknown> | null)?.["write_only_attributes_allowed"])}\n`);
    return { diagnostics: [] };
  },
  ValidateResourceConfig: () => ({ diagnostics: [] }),
  ValidateDataResourceConfig: () => ({ diagnostics: [] }),
  UpgradeResourceState: (req) => {
    const raw = req["raw_state"] as { json?: Uint8Array };
    const obj = JSON.parse(Buffer.from(raw.json ?? new Uint8Array()).toString("utf8")) as Record<string, string | null>;
    const v = objectVal({
      id: obj["id"] ? stringVal(obj["id"]) : nullVal(StringType),
      input: obj["input"] ? stringVal(obj["input"]) : nullVal(StringType),
      output: obj["output"] ? stringVal(obj["output"]) : nullVal(StringType),
    });
    return { upgraded_state: enc(v, thingSchema), diagnostics: [] };
  },
  ReadResource: (req) => ({ new_state: req["current_state"], private: req["private"], diagnostics: [] }),
  PlanResourceChange: (req) => {
    const prior = dec(req["prior_state"] as ProtoDynamicValue, thingSchema);
    const proposed = dec(req["proposed_new_state"] as ProtoDynamicValue, thingSchema);
    if (proposed.kind === "null") return { planned_state: req["proposed_new_state"], diagnostics: [] };
    const input = attr(proposed, "input");
    const id = prior.kind === "null" ? unknownVal(StringType) : attr(prior, "id");
    const output = isKnown(input) ? input : unknownVal(StringType);
    const planned = objectVal({ id, input, output });
    const requiresReplace = prior.kind !== "null" && !sameString(attr(prior, "input"), input) ? [{ steps: [{ attribute_name: "input" }] }] : [];
    return { planned_state: enc(planned, thingSchema), requires_replace: requiresReplace, planned_private: Buffer.from("p1"), diagnostics: [] };
  },
  ApplyResourceChange: async (req) => {
    const planned = dec(req["planned_state"] as ProtoDynamicValue, thingSchema);
    if (planned.kind === "null") return { new_state: req["planned_state"], diagnostics: [] };
    const input = attr(planned, "input");
    if (MODE === "crash-on-apply") {
      process.stderr.write("panic: runtime error: invalid memory address or nil pointer dereference\n");
      process.stderr.write("goroutine 42 [running]:\nmain.apply()\n");
      setTimeout(() => process.exit(2), 20);
      return new Promise<object>(() => undefined);
    }
    if (input.kind === "string" && input.value === "slow") {
      await new Promise<void>((resolve) => (pendingStop = resolve));
      return { new_state: req["prior_state"], diagnostics: [{ severity: "ERROR", summary: "Interrupted", detail: "stopped by StopProvider" }] };
    }
    const idVal = attr(planned, "id");
    const id = isKnown(idVal) && idVal.kind === "string" ? idVal : stringVal(`id-${randomBytes(4).toString("hex")}`);
    const newState = objectVal({ id, input, output: input.kind === "string" ? stringVal(`${asString(input)}${configuredRegion ? `@${configuredRegion}` : ""}`) : nullVal(StringType) });
    return { new_state: enc(newState, thingSchema), private: Buffer.from("applied"), diagnostics: [] };
  },
  ImportResourceState: (req) => ({
    imported_resources: [{ type_name: "test_thing", state: enc(objectVal({ id: stringVal(String(req["id"])), input: nullVal(StringType), output: nullVal(StringType) }), thingSchema) }],
    diagnostics: [],
  }),
  ReadDataSource: (req) => {
    const cfg = dec(req["config"] as ProtoDynamicValue, echoSchema);
    const input = attr(cfg, "input");
    if (input.kind === "string" && input.value === "fail") throw new Error("data source exploded");
    return { state: enc(objectVal({ input: attr(cfg, "input"), output: attr(cfg, "input") }), echoSchema), diagnostics: [] };
  },
  CallFunction: (req) => {
    const args = req["arguments"] as ProtoDynamicValue[];
    const r = decodeDynamicValue(args[0], StringType);
    if (!r.ok || r.value.kind !== "string") return { error: { text: "bad argument", function_argument: 0 } };
    if (r.value.value === "") return { error: { text: "empty string", function_argument: 0 } };
    const out = encodeDynamicValue(stringVal(r.value.value.toUpperCase()), StringType);
    return { result: out.ok ? out.value : null };
  },
  StopProvider: () => {
    stopCalls++;
    process.stderr.write(`stop called (${stopCalls})\n`);
    pendingStop?.();
    pendingStop = undefined;
    return { Error: "" };
  },
};

function sameString(a: Value, b: Value): boolean {
  if (a.kind === "string" && b.kind === "string") return a.value === b.value;
  return a.kind === b.kind && a.kind === "null";
}

const V5_NAMES: Record<string, string> = {
  GetSchema: "GetProviderSchema",
  PrepareProviderConfig: "ValidateProviderConfig",
  ValidateResourceTypeConfig: "ValidateResourceConfig",
  ValidateDataSourceConfig: "ValidateDataResourceConfig",
  Configure: "ConfigureProvider",
  Stop: "StopProvider",
};

async function serve(): Promise<void> {
  const services = pluginServices();
  const server = new grpc.Server();
  const impl: grpc.UntypedServiceImplementation = {};
  const service = PROTOCOL === 6 ? services.provider6.service : services.provider5.service;
  for (const method of Object.keys(service)) {
    const handler = handlers[PROTOCOL === 5 ? (V5_NAMES[method] ?? method) : method];
    if (!handler) continue;
    impl[method] = (call: grpc.ServerUnaryCall<Record<string, unknown>, object>, callback: grpc.sendUnaryData<object>) => {
      Promise.resolve()
        .then(() => handler(call.request))
        .then(
          (resp) => callback(null, resp),
          (e: unknown) => callback({ code: grpc.status.INTERNAL, details: e instanceof Error ? e.message : String(e) }),
        );
    };
  }
  server.addService(service, impl);
  server.addService(services.controller.service, {
    Shutdown: (_call: grpc.ServerUnaryCall<object, object>, callback: grpc.sendUnaryData<object>) => {
      callback(null, {});
      setTimeout(() => process.exit(0), 10);
    },
  });
  server.addService(services.stdio.service, {
    StreamStdio: (call: grpc.ServerWritableStream<object, object>) => {
      call.write({ channel: "STDERR", data: Buffer.from("stdio: hello from the plugin\n") });
      call.write({ channel: "STDOUT", data: Buffer.from("stdio: some stdout\n") });
    },
  });
  server.addService(services.broker.service, {
    StartStream: (call: grpc.ServerDuplexStream<object, object>) => {
      call.on("data", () => undefined);
      call.on("error", () => undefined);
    },
  });

  const clientCertPem = process.env["PLUGIN_CLIENT_CERT"];
  const tls = MODE !== "plaintext" && clientCertPem !== undefined && clientCertPem !== "";
  let certB64 = "";
  let creds = grpc.ServerCredentials.createInsecure();
  if (tls) {
    const own = await generateCertificate();
    creds = grpc.ServerCredentials.createSsl(Buffer.from(clientCertPem), [{ cert_chain: Buffer.from(own.certPem), private_key: Buffer.from(own.keyPem) }], true);
    certB64 = Buffer.from(pemToDer(own.certPem)).toString("base64").replace(/=+$/, "");
  }
  let network = "unix";
  let address: string;
  if (process.env["TEST_PLUGIN_NETWORK"] === "tcp") {
    network = "tcp";
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", creds, (e, p) => (e ? reject(e) : resolve(p))),
    );
    address = `127.0.0.1:${port}`;
  } else {
    address = path.join(os.tmpdir(), `plugin${randomBytes(6).toString("hex")}`);
    await new Promise<number>((resolve, reject) => server.bindAsync(`unix://${address}`, creds, (e, p) => (e ? reject(e) : resolve(p))));
    process.on("exit", () => {
      if (existsSync(address)) unlinkSync(address);
    });
  }
  process.stderr.write("raw stderr: plugin started\n");
  process.stdout.write(`1|${PROTOCOL}|${network}|${address}|grpc${tls ? `|${certB64}` : ""}\n`);
}

if (process.env["TF_PLUGIN_MAGIC_COOKIE"] !== "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2") {
  process.stderr.write("This binary is a plugin. These are not meant to be executed directly.\n");
  process.exit(1);
}
if (MODE === "garbage") {
  process.stdout.write("fake provider 1.2.0\n");
  process.exit(0);
}
if (MODE === "exit-early") {
  process.stderr.write("cannot start: missing credentials\n");
  process.exit(3);
}
if (MODE === "hang") {
  process.stderr.write("thinking...\n");
  setInterval(() => undefined, 1000);
} else {
  await serve();
}
