// Benchmark of `fmt` (not a test): formatting throughput on the real-world corpus
// (../shared/realworld, ~700 files), as it is (already formatted) and unindented (every line's
// leading whitespace removed, so every file needs work), in-process; then the whole CLI,
// `terrace fmt -check -recursive` against `terraform fmt -check -recursive` on the unindented
// tree when terraform is on PATH.
//
//   npm run build -w engine && node bench/fmt.mjs
//
// Options (env): BENCH_REPEAT (10) passes over the corpus, the median is reported.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "engine/dist/fmt/index.js");
if (!existsSync(dist)) {
  console.error("engine/dist is not built: run `npm run build -w engine` first");
  process.exit(1);
}
const { formatConfig } = await import(dist);
const REALWORLD = path.resolve(root, "../shared/realworld");
const REPEAT = Number(process.env.BENCH_REPEAT ?? 10);

function walk(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) return walk(p);
      return name.endsWith(".tf") || name.endsWith(".tfvars") ? [p] : [];
    });
}

const files = walk(REALWORLD).map((p) => ({ rel: path.relative(REALWORLD, p), src: readFileSync(p, "utf8") }));
const unindented = files.map((f) => ({ rel: f.rel, src: f.src.replace(/^[ \t]+/gm, "") }));
const bytes = (set) => set.reduce((n, f) => n + Buffer.byteLength(f.src), 0);

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function pass(set) {
  const t0 = performance.now();
  let changed = 0;
  for (const f of set) {
    const r = formatConfig(f.src, f.rel);
    if (r.formatted === undefined) throw new Error(`${f.rel} did not parse`);
    if (r.formatted !== f.src) changed++;
  }
  return { ms: performance.now() - t0, changed };
}

function inProcess(label, set) {
  pass(set); // warm-up
  const times = [];
  let changed = 0;
  for (let i = 0; i < REPEAT; i++) {
    const r = pass(set);
    times.push(r.ms);
    changed = r.changed;
  }
  const ms = median(times);
  const mb = bytes(set) / 1e6;
  console.log(
    `${label}: ${set.length} files, ${mb.toFixed(2)} MB, ${changed} changed: median ${ms.toFixed(0)} ms per pass ` +
      `(${(mb / (ms / 1000)).toFixed(1)} MB/s, ${((ms * 1000) / set.length).toFixed(0)} µs per file)`,
  );
}

inProcess("in-process, as is", files);
inProcess("in-process, unindented", unindented);
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);

// The whole CLI, process start included, on a tree of the unindented files.
const tree = mkdtempSync(path.join(os.tmpdir(), "fmt-bench-"));
for (const f of unindented) {
  const p = path.join(tree, f.rel);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, f.src);
}
function cli(label, cmd, args, env) {
  const times = [];
  let status;
  for (let i = 0; i < Math.max(3, Math.floor(REPEAT / 2)); i++) {
    const t0 = performance.now();
    const r = spawnSync(cmd, args, { cwd: tree, env, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
    times.push(performance.now() - t0);
    status = r.status;
    if (r.error) throw r.error;
  }
  console.log(`${label}: median ${median(times).toFixed(0)} ms (exit ${status})`);
}
cli("terrace fmt -check -recursive", process.execPath, [path.join(root, "engine/bin/terrace.mjs"), "fmt", "-check", "-recursive", "."], process.env);
const tf = spawnSync("terraform", ["version"], { encoding: "utf8" });
if (tf.status === 0) {
  const rc = path.join(tree, ".terraformrc");
  writeFileSync(rc, "");
  cli("terraform fmt -check -recursive", "terraform", ["fmt", "-check", "-recursive", "."], {
    ...process.env,
    TF_CLI_CONFIG_FILE: rc,
    CHECKPOINT_DISABLE: "1",
  });
} else {
  console.log("terraform is not on PATH: no comparison");
}
rmSync(tree, { recursive: true, force: true });
