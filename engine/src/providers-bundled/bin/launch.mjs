// Starts one bundled provider. After `npm ci` / `npm run build` the compiled entry in engine/dist
// runs. In a checkout without dist (or with TERRACE_PROVIDERS_FROM_SOURCE=1) the TypeScript
// sources run instead: bundled once with esbuild into engine/node_modules/.cache/terrace-providers
// and rebuilt only when a source file changes, because Terraform starts a plugin several times per
// command and compiling the sources on every start (tsx) costs seconds.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export async function launch(name) {
  const engine = new URL("../../../", import.meta.url);
  const compiled = new URL(`dist/providers-bundled/${name}/main.js`, engine);
  if (process.env.TERRACE_PROVIDERS_FROM_SOURCE !== "1" && existsSync(compiled)) {
    await import(compiled.href);
    return;
  }
  const bundle = await bundleFromSource(engine, name);
  await import(bundle.href);
}

async function bundleFromSource(engine, name) {
  const cacheDir = new URL("node_modules/.cache/terrace-providers/", engine);
  const out = new URL(`${name}.mjs`, cacheDir);
  const inputsFile = new URL(`${name}.inputs.json`, cacheDir);
  if (isFresh(engine, out, inputsFile)) return out;

  const { build } = await import("esbuild");
  mkdirSync(cacheDir, { recursive: true });
  const entry = fileURLToPath(new URL(`src/providers-bundled/${name}/main.ts`, engine));
  const tmp = fileURLToPath(new URL(`${name}.${process.pid}.tmp.mjs`, cacheDir));
  const result = await build({
    entryPoints: [entry],
    outfile: tmp,
    bundle: true,
    packages: "external",
    format: "esm",
    platform: "node",
    target: "node20",
    metafile: true,
    logLevel: "error",
  });
  const root = fileURLToPath(engine);
  const inputs = Object.keys(result.metafile.inputs).map((p) => (p.startsWith("/") ? p : `${process.cwd()}/${p}`));
  // Rename into place so that concurrent starts never import a half-written file.
  renameSync(tmp, fileURLToPath(out));
  writeFileSync(fileURLToPath(inputsFile), JSON.stringify({ root, inputs }));
  return out;
}

function isFresh(engine, out, inputsFile) {
  try {
    const built = statSync(out).mtimeMs;
    const { inputs } = JSON.parse(readFileSync(inputsFile, "utf8"));
    for (const p of inputs) if (statSync(p).mtimeMs > built) return false;
    // A new file under src/ (for instance a new import) shows up as a newer directory mtime.
    return statSync(new URL("src/providers-bundled/", engine)).mtimeMs <= built;
  } catch {
    return false;
  }
}
