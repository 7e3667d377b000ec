// The plugin protocol definitions (tfplugin5, tfplugin6 and go-plugin's services), loaded at
// runtime with @grpc/proto-loader. The .proto files sit beside this module in src/ and are copied
// next to the compiled module in dist/ by scripts/build.mjs; `protoDir()` finds them in either.
// Client (providers/plugin) and server (sdk) load them with the same options, so both see the
// same message shapes (described in ./types.ts).

import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export * from "./types.js";

export const PROTO_FILES = [
  "tfplugin5.proto",
  "tfplugin6.proto",
  "grpc_controller.proto",
  "grpc_stdio.proto",
  "grpc_broker.proto",
] as const;

/**
 * How messages decode: field names as in the .proto (snake_case), int64 as JS numbers, enums as
 * their names ("ERROR"), absent fields as their defaults (absent messages as null), and each
 * oneof's set member named by a virtual field (`selector: "attribute_name"`).
 */
export const PROTO_LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  arrays: true,
  oneofs: true,
};

/** The directory holding the .proto files: beside this module (src/ or dist/), else src/. */
export function protoDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [here, path.resolve(here, "../../../src/providers/proto")];
  for (const dir of candidates) if (existsSync(path.join(dir, "tfplugin6.proto"))) return dir;
  throw new Error(`plugin protocol .proto files not found (looked in ${candidates.join(", ")})`);
}

/** Every gRPC service the plugin protocols define, as grpc-js client constructors. */
export interface PluginServices {
  /** tfplugin5.Provider */
  readonly provider5: grpc.ServiceClientConstructor;
  /** tfplugin5.Provisioner */
  readonly provisioner5: grpc.ServiceClientConstructor;
  /** tfplugin6.Provider */
  readonly provider6: grpc.ServiceClientConstructor;
  /** plugin.GRPCController */
  readonly controller: grpc.ServiceClientConstructor;
  /** plugin.GRPCStdio */
  readonly stdio: grpc.ServiceClientConstructor;
  /** plugin.GRPCBroker */
  readonly broker: grpc.ServiceClientConstructor;
}

let cached: PluginServices | undefined;

/**
 * Loads the protocol definitions once per process. A server registers an implementation with
 * `server.addService(pluginServices().provider6.service, impl)`.
 */
export function pluginServices(): PluginServices {
  if (cached) return cached;
  const dir = protoDir();
  const def = protoLoader.loadSync(
    PROTO_FILES.map((f) => path.join(dir, f)),
    { ...PROTO_LOADER_OPTIONS, includeDirs: [dir] },
  );
  const root = grpc.loadPackageDefinition(def);
  cached = {
    provider5: service(root, "tfplugin5", "Provider"),
    provisioner5: service(root, "tfplugin5", "Provisioner"),
    provider6: service(root, "tfplugin6", "Provider"),
    controller: service(root, "plugin", "GRPCController"),
    stdio: service(root, "plugin", "GRPCStdio"),
    broker: service(root, "plugin", "GRPCBroker"),
  };
  return cached;
}

function service(root: grpc.GrpcObject, pkg: string, name: string): grpc.ServiceClientConstructor {
  const p = root[pkg];
  const s = p && !isServiceConstructor(p) && !isTypeDefinition(p) ? p[name] : undefined;
  if (!s || !isServiceConstructor(s)) throw new Error(`service ${pkg}.${name} missing from the protocol definitions`);
  return s;
}

function isServiceConstructor(x: unknown): x is grpc.ServiceClientConstructor {
  return typeof x === "function" && "service" in x;
}

function isTypeDefinition(x: unknown): x is grpc.ProtobufTypeDefinition {
  return typeof x === "object" && x !== null && "format" in x && "type" in x;
}
