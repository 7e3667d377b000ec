// Benchmark of the HCL native-syntax parser (not a test): a generated ~20 MiB configuration
// (bench/lib/hcl-config.mjs: resources with nested and dynamic blocks, expressions, heredocs,
// `%{}` templates, comments), written to a temp dir as files of 100 resources (~55 KiB) and
// read back as bytes, then parsed by engine/dist's `parseConfig`. Figures (docs/performance.md,
// section "Engine language"):
//   - throughput parsing file by file (each tree dropped after its file): best and median of runs;
//   - throughput loading the whole configuration (every tree kept, as a module load does), with
//     the heap the trees take after a full GC and the process's peak RSS.
// Target: >= 50 MB/s. MiB here are 2^20 bytes.
//
//   node bench/hcl-parse.mjs             # or: npm run bench -- hcl-parse
// Options (env): BENCH_MB (20), BENCH_PER_FILE (100 resources), BENCH_RUNS (7),
//   BENCH_ENGINE_DIST (another engine build's dist directory, to compare builds).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { writeConfig } from "./lib/hcl-config.mjs";
import { ensureExposeGc, importEngine, machineLine, MiB, summary } from "./lib/engine.mjs";

ensureExposeGc();

const SIZE = Number(process.env.BENCH_MB ?? 20) * MiB;
const PER_FILE = Number(process.env.BENCH_PER_FILE ?? 100);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TARGET_MB_S = 50;

const { parseConfig } = await importEngine("hcl");
const dir = mkdtempSync(path.join(os.tmpdir(), "terrace-bench-hcl-"));
try {
  const gen = writeConfig(dir, { bytes: SIZE, perFile: PER_FILE, flavour: "mixed", seed: 1 });
  const files = readdirSync(dir)
    .sort()
    .map((name) => ({ name, bytes: readFileSync(path.join(dir, name)) }));
  const total = files.reduce((n, f) => n + f.bytes.length, 0);
  console.log(`[bench] ${await machineLine()}`);
  console.log(
    `[bench] generated ${(total / MiB).toFixed(1)} MiB in ${files.length} files, ${gen.resources} resources (${(total / files.length / 1024).toFixed(0)} KiB per file)`,
  );

  // Every file must parse cleanly, or the figures would measure error recovery.
  for (const f of files) {
    const errors = parseConfig(f.bytes, f.name).diagnostics.filter((d) => d.severity === "error");
    if (errors.length) throw new Error(`${f.name}: ${errors[0].summary} (the generator made invalid HCL)`);
  }

  // File by file: each tree is dropped once its file is parsed.
  const wall = [];
  const cpu = [];
  // No forced GC between runs: a full GC shrinks the young generation, which the next run would
  // then pay for in extra scavenges.
  for (let r = 0; r < RUNS; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (const f of files) parseConfig(f.bytes, f.name);
    const dt = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    wall.push(total / MiB / dt);
    cpu.push(total / MiB / ((c.user + c.system) / 1e6));
  }
  // The first run includes compiling the parser; it is left out.
  const w = summary(wall.slice(1));
  const c = summary(cpu.slice(1));
  console.log(
    `parse file by file:   best ${w.max.toFixed(1)} MiB/s, median ${w.median.toFixed(1)} MiB/s (first run ${wall[0].toFixed(1)}); CPU time: best ${c.max.toFixed(1)}, median ${c.median.toFixed(1)} MiB/s`,
  );

  // The whole configuration at once: every tree kept, as loading a module does.
  const loadRuns = [];
  let heapTrees = 0;
  const kept = { trees: [] };
  for (let r = 0; r < 3; r++) {
    kept.trees = [];
    globalThis.gc();
    const base = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    kept.trees = files.map((f) => parseConfig(f.bytes, f.name));
    const dt = (performance.now() - t0) / 1000;
    globalThis.gc();
    heapTrees = process.memoryUsage().heapUsed - base;
    loadRuns.push(total / MiB / dt);
  }
  kept.trees = [];
  const l = summary(loadRuns);
  const rss = process.resourceUsage().maxRSS * 1024;
  console.log(
    `load all, trees kept: best ${l.max.toFixed(1)} MiB/s, median ${l.median.toFixed(1)} MiB/s; trees take ${(heapTrees / MiB).toFixed(0)} MiB of heap (${(heapTrees / total).toFixed(1)} bytes per source byte); peak RSS ${(rss / MiB).toFixed(0)} MiB`,
  );
  const best = w.max * (MiB / 1e6);
  console.log(`target >= ${TARGET_MB_S} MB/s (file by file, best): ${best.toFixed(1)} MB/s, ${best >= TARGET_MB_S ? "met" : "NOT met"}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
