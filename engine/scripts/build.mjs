// Compiles engine/src to engine/dist (ES modules, no bundling) with esbuild. Type checking is a
// separate step (`npm run typecheck`), so this stays well under a second.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const src = path.join(root, "src");

function files(dir, keep) {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return name === "testdata" ? [] : files(p, keep);
    return keep(p) ? [p] : [];
  });
}

const sources = (dir) => files(dir, (p) => p.endsWith(".ts") && !p.endsWith(".test.ts") && !p.endsWith(".d.ts"));
// Files read at runtime beside the compiled modules: the plugin protocol's descriptor (and the
// .proto files it is made from).
const assets = (dir) => files(dir, (p) => p.endsWith(".proto") || p.endsWith(path.join("providers", "proto", "protocol.json")));

rmSync(path.join(root, "dist"), { recursive: true, force: true });
await build({
  entryPoints: sources(src),
  outdir: path.join(root, "dist"),
  outbase: src,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: true,
  logLevel: "warning",
});
for (const file of assets(src)) {
  const out = path.join(root, "dist", path.relative(src, file));
  mkdirSync(path.dirname(out), { recursive: true });
  copyFileSync(file, out);
}
