// `npm run bench [-- name…]`: runs the benchmarks in bench/ one after another (they print their
// figures; docs/performance.md records them). Benchmarks are never part of `npm test`.
import { readdirSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ROOT } from "./lib/paths.mjs";

const wanted = process.argv.slice(2);
const dir = path.join(ROOT, "bench");
const benches = readdirSync(dir)
  .filter((f) => f.endsWith(".mjs") && !f.startsWith("_"))
  .filter((f) => !wanted.length || wanted.some((w) => f.includes(w)))
  .sort();
let failed = 0;
for (const f of benches) {
  console.log(`\n=== bench/${f}`);
  const r = spawnSync(process.execPath, [path.join(dir, f)], { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
