// Benchmark of the engine's graph module (not a test): engine/dist's `graph` on generated DAGs of
// 10,000 and 50,000 vertices with 4 edges per vertex (each vertex depends on 4 earlier ones, most
// of them near it and some far back, as resources depend on their neighbours and on providers and
// variables). Figures, best and median of runs, as vertices per second of wall time and of the
// process's CPU time (steadier on a shared machine):
//   - walk: the parallel walk with a no-op callback (synchronous, then async), parallelism 10;
//   - transitive reduction (on a fresh copy each run);
//   - topological order (sorted by name);
//   - building the graph (add + connect).
// Target: a 50,000-vertex, 200,000-edge walk well under a second.
//
//   node bench/graph-walk.mjs             # or: npm run bench -- graph-walk
// Options (env): BENCH_SIZES (10000,50000), BENCH_RUNS (5), BENCH_EDGES_PER_VERTEX (4),
//   BENCH_ENGINE_DIST (another engine build's dist directory, to compare builds).
import { importEngine, machineLine, summary } from "./lib/engine.mjs";

const SIZES = (process.env.BENCH_SIZES ?? "10000,50000").split(",").map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PER_VERTEX = Number(process.env.BENCH_EDGES_PER_VERTEX ?? 4);

const { AcyclicGraph, walk } = await importEngine("graph");

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Edges as [source, target] pairs over vertices 0..n-1, sources depending on earlier targets. */
function generate(n, seed) {
  const rand = mulberry32(seed);
  const edges = [];
  for (let i = 1; i < n; i++) {
    const seen = new Set();
    for (let k = 0; k < PER_VERTEX && seen.size < i; ) {
      // Three in four near (within 50 positions), the rest anywhere before.
      const j = rand() < 0.75 ? Math.max(0, i - 1 - Math.floor(rand() * 50)) : Math.floor(rand() * i);
      if (seen.has(j)) continue;
      seen.add(j);
      edges.push([i, j]);
      k++;
    }
  }
  return edges;
}

function build(n, edges) {
  const g = new AcyclicGraph({ name: (v) => `aws_instance.r${v}` });
  for (let i = 0; i < n; i++) g.add(i);
  for (const [s, t] of edges) g.connect(s, t);
  return g;
}

/** Runs `f` RUNS times (plus one warm-up), returning wall and CPU vertices/s summaries. */
async function measure(n, f) {
  await f();
  const wall = [];
  const cpu = [];
  for (let r = 0; r < RUNS; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await f();
    const dt = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    wall.push(n / dt);
    cpu.push(n / ((c.user + c.system) / 1e6));
  }
  return { wall: summary(wall), cpu: summary(cpu) };
}

const fmt = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)}M` : `${(x / 1e3).toFixed(0)}k`);
function line(label, n, m) {
  const ms = (1000 * n) / m.wall.max;
  console.log(
    `${label.padEnd(24)} best ${fmt(m.wall.max)} vertices/s (${ms.toFixed(1)} ms), median ${fmt(m.wall.median)}; CPU time: best ${fmt(m.cpu.max)}, median ${fmt(m.cpu.median)} vertices/s`,
  );
}

console.log(`[bench] ${await machineLine()}`);
for (const n of SIZES) {
  const edges = generate(n, n);
  const g = build(n, edges);
  console.log(`\n[bench] ${n} vertices, ${g.edgeCount} edges`);
  line("build", n, await measure(n, () => void build(n, edges)));
  line("walk (sync no-op)", n, await measure(n, async () => {
    const r = await walk(g, () => undefined);
    if (r.succeeded !== n) throw new Error("walk did not finish every vertex");
  }));
  line("walk (async no-op)", n, await measure(n, async () => {
    const r = await walk(g, async () => undefined);
    if (r.succeeded !== n) throw new Error("walk did not finish every vertex");
  }));
  // The copy is made outside the timed part: reduction runs on a fresh one each time.
  const copies = Array.from({ length: RUNS + 1 }, () => g.copy());
  let kept = 0;
  line("transitive reduction", n, await measure(n, () => {
    const c = copies.pop();
    c.transitiveReduction();
    kept = c.edgeCount;
  }));
  console.log(`${"".padEnd(24)} (${g.edgeCount} edges reduced to ${kept})`);
  line("topological order", n, await measure(n, () => void g.topologicalOrder()));
}
