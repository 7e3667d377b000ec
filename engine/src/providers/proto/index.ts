// The plugin protocol definitions (tfplugin5, tfplugin6 and go-plugin's services) as grpc-js
// service definitions. The .proto files are the source; `protocol.json` holds the same
// definitions as protobufjs's JSON descriptor (kept equal to the .proto files by proto.test.ts),
// read at runtime because that is much cheaper than parsing .proto text on every plugin start.
// Messages are encoded and decoded by protobufjs (./codec.ts) in the shapes ./types.ts describes.

import * as grpc from "@grpc/grpc-js";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs/light.js";
import { messageCodec } from "./codec.js";

export * from "./types.js";

export const PROTO_FILES = [
  "tfplugin5.proto",
  "tfplugin6.proto",
  "grpc_controller.proto",
  "grpc_stdio.proto",
  "grpc_broker.proto",
] as const;

/** The descriptor file beside the .proto files: all of PROTO_FILES as protobufjs JSON. */
export const DESCRIPTOR_FILE = "protocol.json";

/** The directory holding the .proto files: beside this module (src/ or dist/), else src/. */
export function protoDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [here, path.resolve(here, "../../../src/providers/proto")];
  for (const dir of candidates) if (existsSync(path.join(dir, DESCRIPTOR_FILE))) return dir;
  throw new Error(`plugin protocol definitions not found (looked for ${DESCRIPTOR_FILE} in ${candidates.join(", ")})`);
}

let descriptor: protobuf.INamespace | undefined;
let root: protobuf.Root | undefined;

function protocolDescriptor(): protobuf.INamespace {
  descriptor ??= JSON.parse(readFileSync(path.join(protoDir(), DESCRIPTOR_FILE), "utf8")) as protobuf.INamespace;
  return descriptor;
}

/** The protocols' definitions, read once per process. */
export function protocolRoot(): protobuf.Root {
  root ??= protobuf.Root.fromJSON(protocolDescriptor());
  return root;
}

const packageRoots = new Map<string, protobuf.Root>();

/**
 * One package's definitions (with the well-known types they use), built on first use: a process
 * that speaks tfplugin6 never builds tfplugin5's types, which is half of what building every
 * package costs a plugin's start-up.
 */
function packageRoot(pkg: string): protobuf.Root {
  let r = packageRoots.get(pkg);
  if (!r) {
    const all = protocolDescriptor();
    const nested = all.nested ?? {};
    r = protobuf.Root.fromJSON({ ...all, nested: { [pkg]: nested[pkg] ?? {}, google: nested["google"] ?? {} } });
    packageRoots.set(pkg, r);
  }
  return r;
}

const definitions = new Map<string, grpc.ServiceDefinition>();

/**
 * A service (`"tfplugin6.Provider"`, `"plugin.GRPCController"`, …) as grpc-js wants it for a
 * server's addService or a client: every method's path and stream kinds with its codecs.
 */
export function serviceDefinition(fullName: string): grpc.ServiceDefinition {
  const known = definitions.get(fullName);
  if (known) return known;
  const def: Record<string, grpc.MethodDefinition<object, object>> = {};
  for (const method of packageRoot(fullName.slice(0, fullName.indexOf("."))).lookupService(fullName).methodsArray) {
    method.resolve();
    if (!method.resolvedRequestType || !method.resolvedResponseType) throw new Error(`protocol: ${fullName}.${method.name}: unresolved message types`);
    const req = messageCodec(method.resolvedRequestType);
    const res = messageCodec(method.resolvedResponseType);
    def[method.name] = {
      path: `/${fullName}/${method.name}`,
      requestStream: method.requestStream === true,
      responseStream: method.responseStream === true,
      requestSerialize: req.serialize,
      requestDeserialize: req.deserialize,
      responseSerialize: res.serialize,
      responseDeserialize: res.deserialize,
    };
  }
  definitions.set(fullName, def);
  return def;
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
 * The protocol's services, built once per process. `.service` is the definition a server
 * registers: `server.addService(pluginServices().provider6.service, impl)`.
 */
export function pluginServices(): PluginServices {
  // Each built when first asked for (so tfplugin5 only when a plugin chooses protocol 5).
  cached ??= {
    get provider5() {
      return serviceClient("tfplugin5.Provider");
    },
    get provisioner5() {
      return serviceClient("tfplugin5.Provisioner");
    },
    get provider6() {
      return serviceClient("tfplugin6.Provider");
    },
    get controller() {
      return serviceClient("plugin.GRPCController");
    },
    get stdio() {
      return serviceClient("plugin.GRPCStdio");
    },
    get broker() {
      return serviceClient("plugin.GRPCBroker");
    },
  };
  return cached;
}

const clients = new Map<string, grpc.ServiceClientConstructor>();

function serviceClient(fullName: string): grpc.ServiceClientConstructor {
  let c = clients.get(fullName);
  if (!c) clients.set(fullName, (c = grpc.makeGenericClientConstructor(serviceDefinition(fullName), fullName)));
  return c;
}
