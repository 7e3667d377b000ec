// Benchmark of durable apply (not a test): what the local store's apply journal costs
// (engine/src/states/README.md, "Durability"). engine/dist's Context applies BENCH_COUNT
// independent terraform_data resources (builtin provider, in process) against a LocalStore in a
// temporary directory, three ways:
//   - final:    no persistence during the walk, one snapshot at the end (the floor);
//   - journal:  every state change appended to .terraform.tfstate.journal (write + group-committed
//               fdatasync), one snapshot at the end (what `terrace apply` does);
//   - snapshot: the whole state rewritten (serialise, fsync, rename) after every completed node,
//               the O(state)-per-object way, on BENCH_SNAPSHOT_COUNT resources because it is
//               quadratic.
// Each figure is the median of BENCH_RUNS runs of apply + final persist (planning excluded): wall
// time, and this process's CPU time (steadier on a shared machine; the journal's fsyncs run on
// libuv's thread pool and count there too).
//
//   node bench/apply-durability.mjs
// Options (env): BENCH_COUNT (5000), BENCH_SNAPSHOT_COUNT (1000), BENCH_RUNS (3),
//   BENCH_ENGINE_DIST (another engine build's dist directory).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { importEngine, machineLine, summary } from "./lib/engine.mjs";

const COUNT = Number(process.env.BENCH_COUNT ?? 5000);
const SNAPSHOT_COUNT = Number(process.env.BENCH_SNAPSHOT_COUNT ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const { Loader, MemoryFS, RootModuleInputs, loadConfigWithRootInputs } = await importEngine("configs");
const { Context } = await importEngine("core");
const { BuiltinTerraformProvider } = await importEngine("providers");
const { LocalStore, newState } = await importEngine("states");

function configText(n) {
  return `resource "terraform_data" "r" {\n  count = ${n}\n  input = "value-\${count.index}"\n}\n`;
}

async function loadConfig(n) {
  const loader = new Loader({ fs: new MemoryFS({ "main.tf": new TextEncoder().encode(configText(n)) }), workingDir: "." });
  const r = await loadConfigWithRootInputs(loader, ".", new RootModuleInputs(new Map()), "default", { cwd: "." });
  if (!r.config || r.diagnostics.some((d) => d.severity === "error")) throw new Error(JSON.stringify(r.diagnostics));
  return r.config;
}

function context() {
  return new Context({ providers: async () => ({ ok: true, provider: new BuiltinTerraformProvider({}) }), parallelism: 10 });
}

function check(diags, what) {
  const errors = diags.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new Error(`${what}: ${errors.map((d) => `${d.summary}: ${d.detail}`).join("; ")}`);
}

/** One apply in a fresh directory; returns wall and CPU milliseconds of apply + final persist. */
async function applyOnce(n, mode) {
  const config = await loadConfig(n);
  const planned = await context().plan(config, newState());
  check(planned.diagnostics, "plan");
  const dir = mkdtempSync(path.join(os.tmpdir(), "terrace-bench-durable-"));
  try {
    const store = new LocalStore(path.join(dir, "terraform.tfstate"));
    check(await store.refresh(), "refresh");
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    let opts = {};
    if (mode === "journal") {
      const j = store.beginJournal(planned.plan.priorState);
      check(j.diagnostics, "journal");
      opts = { observer: j.observer };
    } else if (mode === "snapshot") {
      opts = {
        persistIntervalMs: 0,
        persist: async (s) => {
          store.write(s);
          return store.persist();
        },
      };
    }
    const r = await context().apply(planned.plan, config, opts);
    check(r.diagnostics, "apply");
    store.write(r.state);
    check(await store.persist(), "persist");
    const c = process.cpuUsage(c0);
    return { wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`apply-durability: ${await machineLine()}`);
// Warm the JIT so the first measured mode is not penalised.
await applyOnce(Math.min(COUNT, 500), "final");
await applyOnce(Math.min(COUNT, 500), "journal");
const results = [];
for (const [mode, n] of [
  ["final", COUNT],
  ["journal", COUNT],
  ["final", SNAPSHOT_COUNT],
  ["journal", SNAPSHOT_COUNT],
  ["snapshot", SNAPSHOT_COUNT],
]) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await applyOnce(n, mode));
  const wall = summary(runs.map((r) => r.wall));
  const cpu = summary(runs.map((r) => r.cpu));
  results.push({ mode, n, wall, cpu });
  console.log(
    `${mode.padEnd(8)} ${String(n).padStart(6)} resources: wall median ${(wall.median / 1000).toFixed(2)} s (min ${(wall.min / 1000).toFixed(2)}), ` +
      `CPU median ${(cpu.median / 1000).toFixed(2)} s, ${(wall.median / n).toFixed(2)} ms/resource`,
  );
}
for (const n of new Set(results.map((r) => r.n))) {
  const base = results.find((r) => r.n === n && r.mode === "final");
  for (const r of results.filter((x) => x.n === n && x.mode !== "final")) {
    console.log(`${r.mode} vs final at ${n}: wall x${(r.wall.median / base.wall.median).toFixed(2)}, CPU x${(r.cpu.median / base.cpu.median).toFixed(2)}`);
  }
}
