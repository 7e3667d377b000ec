// Benchmark of the provider plugin path (not a test): the engine's plugin client
// (providers/plugin launchProvider) talking to an SDK provider process — by default the bundled
// `null` provider executable — over a unix socket with AutoMTLS, as `terrace plan` does.
//
//   node bench/plugin-rpc.mjs          # or: npm run bench -- plugin-rpc
//
// Prints:
// - PlanResourceChange round trips per second and p50/p99/max latency (null_resource, a create
//   with two triggers), sequential (one call at a time) and with BENCH_CONCURRENCY calls in
//   flight, each for BENCH_SECONDS after a short warm-up; target ≥ 5,000 calls/s;
//   Each phase shows the CPU time per call of this (host) process and of the plugin process: with
//   both on one machine, calls/s is bounded by 1 / (the busier side's CPU per call) when a CPU is
//   free for each, and by 1 / (their sum) when they share one;
// - plugin start-up, best and median of BENCH_STARTS starts: spawn → handshake line (the process
//   spawned by hand with go-plugin's environment, as the client does), and launchProvider →
//   first GetProviderSchema answer (certificate, spawn, handshake, TLS connect, schema) in this
//   warm process; target < 300 ms. Then the same from a fresh host process, as a `terrace`
//   command meets its first provider: loading the providers module, then launchProvider → schema.
//   `node -e 0` is timed alongside: the floor for any Node process. Beside each wall time, CPU
//   time, which moves much less with the neighbours' load: the plugin's from exec to its
//   handshake line; the host's own for a launch (and the plugin's, to its schema answer).
//
// Options (env): BENCH_SECONDS (5), BENCH_CONCURRENCY (10), BENCH_STARTS (9),
// BENCH_PROVIDER (path to another provider executable; its resource type in BENCH_RESOURCE_TYPE,
// default null_resource), BENCH_PROVIDER_PROFILE=<dir> (each bundled provider process profiles
// itself through TERRACE_PROVIDER_CPU_PROF, see providers-bundled/bin/launch.cjs, and writes
// <name>.<pid>.cpuprofile there when it exits; profile the host with `node --cpu-prof`),
// BENCH_ENGINE_DIST (another build, see lib/engine.mjs).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { ENGINE } from "../scripts/lib/paths.mjs";
import { pathToFileURL } from "node:url";
import { importEngine, machineLine, summary } from "./lib/engine.mjs";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 10);
const starts = Number(process.env.BENCH_STARTS ?? 9);
const command = process.env.BENCH_PROVIDER ?? path.join(ENGINE, "src", "providers-bundled", "bin", "terraform-provider-null");
const typeName = process.env.BENCH_RESOURCE_TYPE ?? "null_resource";
const profileDir = process.env.BENCH_PROVIDER_PROFILE;

const providers = await importEngine("providers");
const values = await importEngine("values");
const { GRPCProvider, launchProvider, startPlugin, generateCertificate, MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } = providers;

const providerEnv = profileDir ? { TERRACE_PROVIDER_CPU_PROF: path.resolve(profileDir) } : {};

async function launch() {
  const r = await launchProvider({ command, env: providerEnv, handshakeTimeoutMs: 30_000, providerAddr: "registry.opentofu.org/hashicorp/null" });
  if (!r.ok) throw new Error(r.diagnostics.map((d) => `${d.summary}: ${d.detail}`).join("\n"));
  return r.provider;
}

/** The create plan `terrace plan` sends for `resource "null_resource" "x" { triggers = {...} }`. */
function createRequest(schema) {
  const block = schema.resourceTypes.get(typeName)?.block;
  if (!block) throw new Error(`the provider has no resource type ${typeName}`);
  const ty = providers.impliedType(block);
  const attrs = new Map();
  for (const [name, at] of ty.attributes) attrs.set(name, values.nullVal(at));
  if (ty.attributes.has("triggers")) attrs.set("triggers", values.mapVal(new Map([["a", values.stringVal("one")], ["b", values.stringVal("two")]])));
  const config = values.objectVal(attrs);
  return { typeName, priorState: values.nullVal(ty), proposedNewState: config, config };
}

/** A process's user+system CPU time in ms, from /proc (Linux; undefined elsewhere). */
function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime, in USER_HZ (100)
  } catch {
    return undefined;
  }
}

function latencyRow(phase, calls, elapsedMs, latencies) {
  const s = [...latencies].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return {
    phase,
    calls,
    "calls/s": Math.round((calls / elapsedMs) * 1000),
    "p50 ms": Number(at(0.5).toFixed(3)),
    "p99 ms": Number(at(0.99).toFixed(3)),
    "max ms": Number(s[s.length - 1].toFixed(3)),
    errors: 0,
  };
}

/** `workers` loops, each sending its next call when the last is answered, for `ms`. */
async function roundTrips(provider, req, workers, ms, pluginPid) {
  const latencies = [];
  const host0 = process.cpuUsage();
  const plugin0 = processCpuMs(pluginPid);
  let errors = 0;
  const end = performance.now() + ms;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < end) {
        const s = performance.now();
        const r = await provider.planResourceChange(req);
        latencies.push(performance.now() - s);
        if (r.diagnostics.some((d) => d.severity === "error")) errors++;
      }
    }),
  );
  const elapsed = performance.now() - t0;
  const host = process.cpuUsage(host0);
  const plugin1 = processCpuMs(pluginPid);
  const perCall = (ms) => (ms === undefined ? "?" : Math.round((ms * 1000) / latencies.length));
  return {
    latencies,
    elapsed,
    errors,
    "host CPU µs/call": perCall((host.user + host.system) / 1000),
    "plugin CPU µs/call": perCall(plugin0 === undefined || plugin1 === undefined ? undefined : plugin1 - plugin0),
  };
}

async function rpcPhases() {
  // startPlugin + GRPCProvider is what launchProvider does; the client gives the process id.
  const started = await startPlugin({ command, env: providerEnv, handshakeTimeoutMs: 30_000 });
  if (!started.ok) throw new Error(started.error);
  const pid = started.client.pid;
  const provider = new GRPCProvider(started.client);
  try {
    const schema = await provider.getProviderSchema();
    const cfg = await provider.configureProvider({ terraformVersion: "1.9.0", config: values.objectVal(new Map()) });
    if (cfg.diagnostics.some((d) => d.severity === "error")) throw new Error("ConfigureProvider failed");
    const req = createRequest(schema);
    const check = await provider.planResourceChange(req);
    if (check.diagnostics.length > 0) throw new Error(JSON.stringify(check.diagnostics));
    // The bytes a PlanResourceChange puts on the wire each way, for the floor phase.
    const def = providers.pluginServices().provider6.service.PlanResourceChange;
    let wire;
    const unary = started.client.unary.bind(started.client);
    started.client.unary = async (service, method, request) => {
      const r = await unary(service, method, request);
      if (method === "PlanResourceChange" && r.ok) wire = { path: def.path, request: def.requestSerialize(request), response: def.responseSerialize(r.response) };
      return r;
    };
    await provider.planResourceChange(req);
    started.client.unary = unary;
    await roundTrips(provider, req, concurrency, 1000, pid); // warm-up: JIT on both sides
    const rows = [];
    for (const [phase, workers] of [
      ["sequential", 1],
      [`${concurrency} concurrent`, concurrency],
    ]) {
      const r = await roundTrips(provider, req, workers, seconds * 1000, pid);
      rows.push({
        ...latencyRow(phase, r.latencies.length, r.elapsed, r.latencies),
        errors: r.errors,
        "host CPU µs/call": r["host CPU µs/call"],
        "plugin CPU µs/call": r["plugin CPU µs/call"],
      });
    }
    rows.push(await floorPhase(wire));
    return rows;
  } finally {
    await provider.close();
  }
}

/**
 * The same calls' bytes, with `concurrency` in flight, against a grpc-js server that answers
 * with fixed bytes (lib/grpc-floor-server.mjs), from a bare grpc-js channel that neither encodes
 * nor decodes: what grpc-js, Node's http2 and TLS cost per call on this machine, the ceiling of
 * any provider protocol client and server built on them.
 */
async function floorPhase(wire) {
  const grpc = createRequire(path.join(ENGINE, "package.json"))("@grpc/grpc-js");
  const [serverCert, clientCert] = await Promise.all([generateCertificate(), generateCertificate()]);
  const socket = path.join(mkdtempSync(path.join(tmpdir(), "floor-")), "s.sock");
  const server = spawn(process.execPath, [path.join(import.meta.dirname, "lib", "grpc-floor-server.mjs")], {
    env: { ...process.env, FLOOR_SOCKET: socket, FLOOR_CERT: serverCert.certPem, FLOOR_KEY: serverCert.keyPem, FLOOR_CLIENT_CERT: clientCert.certPem, FLOOR_PATH: wire.path, FLOOR_RESPONSE: wire.response.toString("base64") },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise((resolve, reject) => {
    server.stdout.once("data", resolve);
    server.once("exit", (code) => reject(new Error(`floor server exited (${code})`)));
  });
  server.removeAllListeners("exit");
  const creds = grpc.credentials.createSsl(Buffer.from(serverCert.certPem), Buffer.from(clientCert.keyPem), Buffer.from(clientCert.certPem));
  const channel = new grpc.Channel(`unix://${socket}`, creds, { "grpc.ssl_target_name_override": "localhost", "grpc.default_authority": "localhost" });
  const call = () =>
    new Promise((resolve) => {
      const c = channel.createCall(wire.path, Infinity, undefined, null, undefined);
      let errors = 0;
      c.start(new grpc.Metadata(), {
        onReceiveMetadata: () => undefined,
        onReceiveMessage: () => undefined,
        onReceiveStatus: (st) => resolve(st.code === 0 ? errors : errors + 1),
      });
      c.sendMessageWithContext({}, wire.request);
      c.halfClose();
      c.startRead();
    });
  const fake = { planResourceChange: async () => ({ diagnostics: (await call()) ? [{ severity: "error" }] : [] }) };
  try {
    await roundTrips(fake, undefined, concurrency, 1000, server.pid);
    const r = await roundTrips(fake, undefined, concurrency, seconds * 1000, server.pid);
    return {
      ...latencyRow(`grpc-js floor, ${concurrency} concurrent`, r.latencies.length, r.elapsed, r.latencies),
      errors: r.errors,
      "host CPU µs/call": r["host CPU µs/call"],
      "plugin CPU µs/call": r["plugin CPU µs/call"],
    };
  } finally {
    channel.close();
    server.kill("SIGTERM");
  }
}

/** Spawn → first stdout line, with the environment go-plugin's client gives a plugin. */
async function timeHandshake(cert) {
  const env = {
    ...process.env,
    ...providerEnv,
    [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
    PLUGIN_PROTOCOL_VERSIONS: "5,6",
    PLUGIN_MIN_PORT: "10000",
    PLUGIN_MAX_PORT: "25000",
    PLUGIN_CLIENT_CERT: cert.certPem,
  };
  const t0 = performance.now();
  const child = spawn(command, [], { env, stdio: ["ignore", "pipe", "inherit"] });
  const started = await new Promise((resolve, reject) => {
    let buf = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      buf += chunk;
      if (buf.includes("\n")) resolve({ ms: performance.now() - t0, pluginCpu: processCpuMs(child.pid) });
    });
    child.on("exit", (code) => reject(new Error(`plugin exited (${code}) before its handshake`)));
  });
  child.removeAllListeners("exit");
  // SIGTERM: the SDK stops serving, removes its socket and exits (and writes a profile, if asked).
  await new Promise((resolve) => {
    child.on("exit", resolve);
    child.kill("SIGTERM");
  });
  return started;
}

/**
 * A fresh Node process that loads the providers module and launches the provider once, as a
 * `terrace` command does for its first provider: how long the import took, and launchProvider →
 * first GetProviderSchema answer.
 */
function freshHostStart() {
  const script = `
    const t0 = performance.now();
    const providers = await import(${JSON.stringify(pathToFileURL(path.resolve(process.env.BENCH_ENGINE_DIST ?? path.join(ENGINE, "dist"), "providers", "index.js")).href)});
    const t1 = performance.now();
    const c1 = process.cpuUsage();
    const r = await providers.launchProvider({ command: ${JSON.stringify(command)}, env: ${JSON.stringify(providerEnv)}, handshakeTimeoutMs: 30000 });
    if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
    await r.provider.getProviderSchema();
    const t2 = performance.now();
    const c2 = process.cpuUsage(c1);
    await r.provider.close();
    process.stdout.write(JSON.stringify({ importMs: t1 - t0, importCpu: (c1.user + c1.system) / 1000, launchMs: t2 - t1, launchCpu: (c2.user + c2.system) / 1000 }));`;
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }));
}

async function startPhases() {
  const cert = await generateCertificate();
  const rows = {
    floor: { what: "node -e 0 (floor)", ms: [], cpu: [] },
    handshake: { what: "spawn → handshake line", ms: [], cpu: [] },
    schema: { what: "launchProvider → GetProviderSchema answer", ms: [], cpu: [], pluginCpu: [] },
    freshImport: { what: "fresh host: import providers module", ms: [], cpu: [] },
    freshLaunch: { what: "fresh host: launchProvider → GetProviderSchema", ms: [], cpu: [] },
  };
  for (let i = 0; i < starts; i++) {
    let t0 = performance.now();
    const floor = spawnSync(process.execPath, ["-e", "process.stdout.write(JSON.stringify(process.cpuUsage()))"], { encoding: "utf8" });
    rows.floor.ms.push(performance.now() - t0);
    const fc = JSON.parse(floor.stdout);
    rows.floor.cpu.push((fc.user + fc.system) / 1000);
    const hs = await timeHandshake(cert);
    rows.handshake.ms.push(hs.ms);
    rows.handshake.cpu.push(hs.pluginCpu);
    t0 = performance.now();
    const c0 = process.cpuUsage();
    const p = await launch();
    await p.getProviderSchema();
    rows.schema.ms.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    rows.schema.cpu.push((c.user + c.system) / 1000);
    rows.schema.pluginCpu.push(processCpuMs(p.client.pid));
    await p.close();
    const fresh = freshHostStart();
    rows.freshImport.ms.push(fresh.importMs);
    rows.freshImport.cpu.push(fresh.importCpu);
    rows.freshLaunch.ms.push(fresh.launchMs);
    rows.freshLaunch.cpu.push(fresh.launchCpu);
  }
  // CPU time moves much less with the neighbours' load than wall time: for the plugin, its CPU
  // from exec to the handshake line (or to the schema answer); for the host, its own.
  const cell = (xs) => {
    const ok = xs.filter((x) => x !== undefined);
    if (ok.length === 0) return "?";
    const s = summary(ok);
    return `${Math.round(s.min)} / ${Math.round(s.median)}`;
  };
  return Object.values(rows).map((r) => {
    const s = summary(r.ms);
    return {
      start: r.what,
      "best ms": Math.round(s.min),
      "median ms": Math.round(s.median),
      "max ms": Math.round(s.max),
      "CPU ms best / median": cell(r.cpu),
      "plugin CPU ms": r.pluginCpu ? cell(r.pluginCpu) : "",
    };
  });
}

console.log(`[bench] ${await machineLine()}`);
console.log(`[bench] provider ${command} (${typeName}), ${seconds} s per phase, ${starts} starts${profileDir ? `, provider profiles in ${profileDir}` : ""}`);
console.table(await rpcPhases());
console.table(await startPhases());
console.log(`[bench] load average after: ${(await import("node:os")).loadavg().map((x) => x.toFixed(1)).join(" ")}`);
