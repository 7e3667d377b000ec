"use strict";
// How a bundled provider becomes the one file its executable runs: esbuild bundles
// src/providers-bundled/<name>/main.ts with every package it uses (grpc-js, protobufjs, the X.509
// schema, …) into a CommonJS file. `npm ci` / `npm run build` (engine/scripts/build.mjs) writes
// them to dist/providers-bundled/<name>/plugin.cjs; launch.cjs makes one in
// node_modules/.cache/terrace-providers when it runs from the sources.
//
// CommonJS rather than an ES module because launch.cjs compiles the bundle with vm.Script, which
// takes a V8 code cache (Node 20 has no code cache for ES modules): see launch.cjs. The first line
// carries a fresh id per build, which the code cache is keyed on.
const { randomUUID } = require("node:crypto");
const path = require("node:path");

const ENGINE = path.resolve(__dirname, "..", "..", "..");

/** The providers with an executable of their own (bin/mock-aws runs `test` under another name). */
const BUNDLED_PROVIDER_NAMES = ["null", "random", "sim", "test"];

/** The first line's marker, in provider bundles and the CLI's; the id after it changes with every build. */
const BUNDLE_MARK = "// terrace bundle ";

/**
 * esbuild's options for a bundle that launch.cjs runs (the providers', and the CLI's built by
 * scripts/build.mjs): one CommonJS file with its packages, whose first line carries a fresh build
 * id, and which defines `__terraceBundleUrl`, its own file URL.
 */
function cjsBundleOptions() {
  return {
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    // Packages' ES module builds where they have one: smaller and quicker to evaluate than their
    // CommonJS builds (the X.509 schema's by a third).
    mainFields: ["module", "main"],
    // ASCII only (non-ASCII escaped), so that launch.cjs can read it as Latin-1, which is cheaper.
    charset: "ascii",
    // Less source to read and to compile lazily; names stay, so stack traces stay readable.
    minifyWhitespace: true,
    minifySyntax: true,
    banner: { js: `${BUNDLE_MARK}${randomUUID()}\nvar __terraceBundleUrl = require("node:url").pathToFileURL(__filename).href;` },
  };
}

/**
 * Bundles each provider of `names` into `<outdir>/<outName(name)>.cjs`. Returns the absolute
 * paths of every input file (sources and packages), for callers that rebuild when one changes.
 */
async function bundleProviders({ names = BUNDLED_PROVIDER_NAMES, outdir, outName = (name) => name }) {
  const { build } = await import("esbuild");
  const entryPoints = {};
  for (const name of names) entryPoints[outName(name)] = path.join(ENGINE, "src", "providers-bundled", name, "main.ts");
  const result = await build({
    ...cjsBundleOptions(),
    entryPoints,
    outdir,
    outExtension: { ".js": ".cjs" },
    metafile: true,
    logLevel: "error",
    // grpc-js requires proto-loader (and with it protobufjs's .proto parser) only to serve its
    // channelz and ORCA services, which a provider never does: left out, the bundle is a third
    // smaller and starts faster. Should it ever be asked for, it loads from node_modules.
    external: ["@grpc/proto-loader"],
    // The sources find files beside themselves through import.meta.url (providers/proto's
    // descriptor); in the bundle that is the bundle's own location.
    define: { "import.meta.url": "__terraceBundleUrl" },
  });
  return Object.keys(result.metafile.inputs).map((p) => path.resolve(p));
}

/** The build id on a bundle's first line, or undefined. */
function bundleId(source) {
  if (!source.startsWith(BUNDLE_MARK)) return undefined;
  const end = source.indexOf("\n");
  return source.slice(BUNDLE_MARK.length, end < 0 ? undefined : end);
}

module.exports = { BUNDLED_PROVIDER_NAMES, bundleProviders, bundleId, cjsBundleOptions };
