// Starts one bundled provider. Terraform starts a plugin several times per command, so start-up
// time counts: the provider runs from a single-file bundle (its code and its packages — grpc-js,
// protobufjs, … — inlined), built with esbuild into engine/node_modules/.cache/terrace-providers
// and rebuilt only when an input changes. Loading one file instead of a few hundred modules saves
// ~100 ms per start (bench/plugin-rpc.mjs, docs/performance.md "Provider plugins").
// The bundle is made from the compiled entry in engine/dist when dist exists (after `npm ci` /
// `npm run build`), else — or with TERRACE_PROVIDERS_FROM_SOURCE=1 — from the TypeScript sources
// (compiling them through tsx on every start costs seconds). Without esbuild (an install without
// dev dependencies) the compiled entry in dist is imported as it is.
// TERRACE_PROVIDER_CPU_PROF=<dir> profiles the provider process (start-up included) and writes
// `<name>.<pid>.cpuprofile` there when it exits: `node --cpu-prof` cannot be passed through
// NODE_OPTIONS, and the executable is started by the host, not by a command line we control.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export async function launch(name) {
  if (process.env.TERRACE_PROVIDER_CPU_PROF) await startCpuProfile(process.env.TERRACE_PROVIDER_CPU_PROF, name);
  const engine = new URL("../../../", import.meta.url);
  const compiled = new URL(`dist/providers-bundled/${name}/main.js`, engine);
  const fromDist = process.env.TERRACE_PROVIDERS_FROM_SOURCE !== "1" && existsSync(compiled);
  const entry = fromDist ? compiled : new URL(`src/providers-bundled/${name}/main.ts`, engine);
  const bundle = await bundled(engine, name, entry, fromDist);
  await import((bundle ?? compiled).href);
}

/** The bundle for `entry`, built when missing or stale; undefined when esbuild is not installed. */
async function bundled(engine, name, entry, fromDist) {
  const cacheDir = new URL("node_modules/.cache/terrace-providers/", engine);
  const base = `${name}-${fromDist ? "dist" : "src"}`;
  const out = new URL(`${base}.mjs`, cacheDir);
  const inputsFile = new URL(`${base}.inputs.json`, cacheDir);
  const watched = new URL(fromDist ? "dist/providers-bundled/" : "src/providers-bundled/", engine);
  if (isFresh(out, inputsFile, watched)) return out;

  let build;
  try {
    ({ build } = await import("esbuild"));
  } catch {
    if (fromDist) return undefined;
    throw new Error("running the bundled providers from source needs esbuild (npm ci), or build engine/dist first (npm run build)");
  }
  mkdirSync(cacheDir, { recursive: true });
  const tmp = fileURLToPath(new URL(`${base}.${process.pid}.tmp.mjs`, cacheDir));
  const result = await build({
    entryPoints: [fileURLToPath(entry)],
    outfile: tmp,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    metafile: true,
    logLevel: "error",
    // grpc-js requires proto-loader (and with it protobufjs's .proto parser) only to serve its
    // channelz and ORCA services, which a provider never does: left out, the bundle is a third
    // smaller and starts faster. Should it ever be asked for, it loads from node_modules.
    external: ["@grpc/proto-loader"],
    // CommonJS packages inlined into an ES module still call require() for Node's built-ins.
    banner: { js: 'import { createRequire as __terraceCreateRequire } from "node:module"; const require = __terraceCreateRequire(import.meta.url);' },
  });
  // Packages count as inputs too, so an `npm ci` that changes one rebuilds the bundle.
  const inputs = Object.keys(result.metafile.inputs).map((p) => path.resolve(p));
  // Rename into place so that concurrent starts never import a half-written file.
  renameSync(tmp, fileURLToPath(out));
  writeFileSync(fileURLToPath(inputsFile), JSON.stringify({ inputs }));
  return out;
}

function isFresh(out, inputsFile, watched) {
  try {
    const built = statSync(out).mtimeMs;
    const { inputs } = JSON.parse(readFileSync(inputsFile, "utf8"));
    for (const p of inputs) if (statSync(p).mtimeMs > built) return false;
    // A new file (for instance a new import) shows up as a newer directory mtime.
    return statSync(watched).mtimeMs <= built;
  } catch {
    return false;
  }
}

/** `node --cpu-prof` from inside: the inspector's profiler, written out synchronously at exit. */
async function startCpuProfile(dir, name) {
  const { Session } = await import("node:inspector");
  const session = new Session();
  session.connect();
  // A main-thread session answers synchronously, so the profile can be taken in an exit handler.
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 100 });
  session.post("Profiler.start");
  process.on("exit", () => {
    session.post("Profiler.stop", (err, res) => {
      if (err) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `${name}.${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
  });
}
