"use strict";
// Starts one bundled provider. Terraform starts a plugin several times per command, so start-up
// time counts (docs/performance.md, "Provider plugins"):
// - the provider runs from one file with its packages inlined (bundle.cjs): built into
//   dist/providers-bundled/<name>/plugin.cjs by `npm ci` / `npm run build`, else — or with
//   TERRACE_PROVIDERS_FROM_SOURCE=1 — from the TypeScript sources into
//   engine/node_modules/.cache/terrace-providers/, rebuilt when an input changes. Without
//   esbuild (an install without dev dependencies) dist's compiled modules are imported as they are;
// - the bundle is compiled with a V8 code cache (`<bundle>.v8cache`), which the first run writes
//   as it exits: later starts skip parsing and compiling the code the handshake and the first
//   calls run. The cache is keyed on the bundle's build id, so a rebuilt bundle never runs old
//   code; V8 itself refuses a cache from another Node version or other flags, and the next exit
//   writes a fresh one. Node 22's module.enableCompileCache does the same for ES modules; Node 20,
//   which we support, has only vm.Script's cachedData, hence CommonJS.
// This file and the executables are CommonJS (bin/package.json) so that starting one does not
// initialise Node's ES module loader either.
// TERRACE_PROVIDER_CPU_PROF=<dir> profiles the provider process (start-up included) and writes
// `<name>.<pid>.cpuprofile` there when it exits: `node --cpu-prof` cannot be passed through
// NODE_OPTIONS, and the executable is started by the host, not by a command line we control.
const { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require("node:fs");
const { createRequire } = require("node:module");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const vm = require("node:vm");
const { bundleId } = require("./bundle.cjs");

const ENGINE = path.resolve(__dirname, "..", "..", "..");

async function launch(name) {
  if (process.env.TERRACE_PROVIDER_CPU_PROF) startCpuProfile(process.env.TERRACE_PROVIDER_CPU_PROF, name);
  const fromSource = process.env.TERRACE_PROVIDERS_FROM_SOURCE === "1";
  const built = path.join(ENGINE, "dist", "providers-bundled", name, "plugin.cjs");
  if (!fromSource && existsSync(built)) return runBundle(built);
  const compiled = path.join(ENGINE, "dist", "providers-bundled", name, "main.js");
  const fromSources = await sourceBundle(name);
  if (fromSources) return runBundle(fromSources);
  if (!fromSource && existsSync(compiled)) return import(pathToFileURL(compiled).href);
  throw new Error("running the bundled providers from source needs esbuild (npm ci), or build engine/dist first (npm run build)");
}

/**
 * Runs a bundle as CommonJS, with its V8 code cache when there is a valid one. The CLI's bundle
 * (dist/cli/terrace.cjs) runs through here too (bin/terrace.mjs).
 */
function runBundle(file) {
  const source = readFileSync(file, "latin1"); // ASCII: see bundle.cjs
  const id = bundleId(source);
  const cacheFile = `${file}.v8cache`;
  let cachedData;
  if (id !== undefined) {
    try {
      const stored = readFileSync(cacheFile);
      const key = Buffer.from(`${id}\n`, "latin1");
      if (stored.subarray(0, key.length).equals(key)) cachedData = stored.subarray(key.length);
    } catch {
      // no cache yet
    }
  }
  // CommonJS's wrapper, on the first line so that line numbers in stack traces stay right.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (id !== undefined && (cachedData === undefined || script.cachedDataRejected)) {
    process.once("exit", () => writeCodeCache(script, cacheFile, id));
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file));
}

/** The code V8 compiled during this run, for the next start. Best effort (dist may be read-only). */
function writeCodeCache(script, cacheFile, id) {
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, Buffer.concat([Buffer.from(`${id}\n`, "latin1"), script.createCachedData()]));
    // Rename into place: a plugin starting meanwhile reads the old cache or the new, never half.
    renameSync(tmp, cacheFile);
  } catch {
    rmSync(tmp, { force: true });
  }
}

/** The bundle made from the sources, built when missing or stale; undefined without esbuild. */
async function sourceBundle(name) {
  const cacheDir = path.join(ENGINE, "node_modules", ".cache", "terrace-providers");
  const out = path.join(cacheDir, `${name}.cjs`);
  const inputsFile = path.join(cacheDir, `${name}.inputs.json`);
  const watched = path.join(ENGINE, "src", "providers-bundled");
  if (isFresh(out, inputsFile, watched)) return out;

  const { bundleProviders } = require("./bundle.cjs");
  let inputs;
  const tmpName = `${name}.${process.pid}.tmp`;
  try {
    inputs = await bundleProviders({ names: [name], outdir: cacheDir, outName: () => tmpName });
  } catch (e) {
    if (e && e.code === "ERR_MODULE_NOT_FOUND") return undefined; // esbuild is not installed
    throw e;
  }
  // Rename into place so that concurrent starts never run a half-written file.
  renameSync(path.join(cacheDir, `${tmpName}.cjs`), out);
  writeFileSync(inputsFile, JSON.stringify({ engine: ENGINE, inputs }));
  return out;
}

function isFresh(out, inputsFile, watched) {
  try {
    const built = statSync(out).mtimeMs;
    const { engine, inputs } = JSON.parse(readFileSync(inputsFile, "utf8"));
    // A node_modules shared by two checkouts (a symlink) must not run the other one's sources.
    if (engine !== ENGINE) return false;
    for (const p of inputs) if (statSync(p).mtimeMs > built) return false;
    // A new file (for instance a new import) shows up as a newer directory mtime.
    return statSync(watched).mtimeMs <= built;
  } catch {
    return false;
  }
}

/** `node --cpu-prof` from inside: the inspector's profiler, written out synchronously at exit. */
function startCpuProfile(dir, name) {
  const { Session } = require("node:inspector");
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

module.exports = { launch, runBundle };
