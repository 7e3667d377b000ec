// The floor for bench/plugin-rpc.mjs: a @grpc/grpc-js server over a unix socket with mutual TLS,
// as a plugin serves, whose PlanResourceChange handler does nothing but answer with fixed bytes
// (the real plugin's answer, captured by the bench). Calls to it cost only what grpc-js, Node's
// http2 and TLS cost: what is left of a call when provider work and value codecs are taken away.
//
// Env: FLOOR_SOCKET, FLOOR_CERT, FLOOR_KEY (its certificate), FLOOR_CLIENT_CERT (the one client
// certificate it trusts), FLOOR_PATH (the method path), FLOOR_RESPONSE (base64). Prints "ready".
import { createRequire } from "node:module";
import { rmSync } from "node:fs";
import path from "node:path";
import { ENGINE } from "../../scripts/lib/paths.mjs";

const grpc = createRequire(path.join(ENGINE, "package.json"))("@grpc/grpc-js");
const env = process.env;
const response = Buffer.from(env.FLOOR_RESPONSE ?? "", "base64");
const same = (b) => b;
const method = { path: env.FLOOR_PATH, requestStream: false, responseStream: false, requestSerialize: same, requestDeserialize: same, responseSerialize: same, responseDeserialize: same };

rmSync(env.FLOOR_SOCKET, { force: true });
const server = new grpc.Server({ "grpc.max_receive_message_length": 256 * 1024 * 1024, "grpc.max_send_message_length": 256 * 1024 * 1024 });
server.addService({ PlanResourceChange: method }, { PlanResourceChange: (_call, done) => done(null, response) });
const creds = grpc.ServerCredentials.createSsl(Buffer.from(env.FLOOR_CLIENT_CERT), [{ cert_chain: Buffer.from(env.FLOOR_CERT), private_key: Buffer.from(env.FLOOR_KEY) }], true);
server.bindAsync(`unix://${env.FLOOR_SOCKET}`, creds, (err) => {
  if (err) throw err;
  process.stdout.write("ready\n");
});
process.on("SIGTERM", () => server.tryShutdown(() => process.exit(0)));
