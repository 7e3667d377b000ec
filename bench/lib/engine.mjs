// The built engine for the engine benchmarks: they measure engine/dist (what the CLI runs), built
// fresh here unless BENCH_ENGINE_DIST points at another build (to compare two builds: copy one
// dist away, change the code, run the bench with and without BENCH_ENGINE_DIST).
import { spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import path from "node:path";
import { ENGINE } from "../../scripts/lib/paths.mjs";

/** Imports `<dist>/<module>/index.js` (e.g. "hcl"), building engine/dist first when it is ours. */
export async function importEngine(module) {
  let dist = process.env.BENCH_ENGINE_DIST;
  if (!dist) {
    dist = path.join(ENGINE, "dist");
    if (!importEngine.built) {
      const r = spawnSync(process.execPath, [path.join(ENGINE, "scripts", "build.mjs")], { stdio: "inherit" });
      if (r.status !== 0) throw new Error("building engine/dist failed");
      importEngine.built = true;
    }
  }
  return import(pathToFileURL(path.join(path.resolve(dist), module, "index.js")).href);
}

/** Re-runs this script with --expose-gc when it is not on, so memory figures are after a full GC. */
export function ensureExposeGc() {
  if (typeof globalThis.gc === "function") return false;
  const r = spawnSync(process.execPath, ["--expose-gc", ...process.execArgv, process.argv[1], ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(r.status ?? 1);
}

/** A sorted copy and its best/median helpers. */
export function summary(values) {
  const s = [...values].sort((a, b) => a - b);
  return { min: s[0], median: s[s.length >> 1], max: s[s.length - 1] };
}

export const MiB = 1024 * 1024;

/** One line describing the machine a figure was taken on (load matters on a shared machine). */
export async function machineLine() {
  const os = await import("node:os");
  const load = os.loadavg().map((x) => x.toFixed(1)).join(" ");
  return `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), load average ${load}`;
}
