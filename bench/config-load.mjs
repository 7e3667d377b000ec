// Benchmark of loading a whole configuration tree (not a test): the configs Loader (what
// `terrace validate` and `init` run first) on a generated tree of 200 local modules and 5,000
// resources. Deterministic: the root calls 20 modules, each of those calls 9 more (200 modules in
// all, two levels deep); resources are spread evenly over them (25 each), with variables, locals
// and outputs wired between them so every module is a realistic mix of blocks. Figures
// (docs/performance.md, section "Configuration loading"): best and median load time over the
// runs, and peak RSS. Target: < 1 s.
//
//   node bench/config-load.mjs          # or: npm run bench -- config-load
// Options (env): BENCH_MODULES (200), BENCH_RESOURCES (5000), BENCH_RUNS (7),
//   BENCH_ENGINE_DIST (another engine build's dist directory, to compare builds).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureExposeGc, importEngine, machineLine, MiB, summary } from "./lib/engine.mjs";

ensureExposeGc();

const MODULES = Number(process.env.BENCH_MODULES ?? 200);
const RESOURCES = Number(process.env.BENCH_RESOURCES ?? 5000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TARGET_S = 1;

const configs = await importEngine("configs");

/** One module's text: its share of resources plus the blocks that tie it to its callers. */
function moduleText(name, resources, children) {
  const out = [`variable "prefix" {\n  type    = string\n  default = "${name}"\n}\n`, `locals {\n  tags = {\n    module = var.prefix\n    owner  = "bench"\n  }\n}\n`];
  for (let i = 0; i < resources; i++) {
    out.push(
      `resource "terraform_data" "r${i}" {\n  input = {\n    name  = "\${var.prefix}-${i}"\n    tags  = local.tags\n    index = ${i}\n    prev  = ${i === 0 ? "null" : `terraform_data.r${i - 1}.id`}\n  }\n  lifecycle {\n    ignore_changes = [triggers_replace]\n  }\n}\n`,
    );
  }
  for (const c of children) out.push(`module "${c}" {\n  source = "./${c}"\n  prefix = "\${var.prefix}-${c}"\n}\n`);
  out.push(`output "first" {\n  value = ${resources > 0 ? "terraform_data.r0.id" : "null"}\n}\n`);
  return out.join("\n");
}

/** Writes the tree: 1 root + MODULES modules (children of the root, then grandchildren). */
function writeTree(dir) {
  const total = MODULES + 1;
  const perModule = Math.floor(RESOURCES / total);
  let extra = RESOURCES - perModule * total;
  const firstLevel = Math.max(1, Math.round(Math.sqrt(MODULES)) - 4);
  const tree = [{ dir, children: [] }];
  let made = 0;
  for (let i = 0; i < firstLevel && made < MODULES; i++, made++) tree[0].children.push(`m${i}`);
  const level1 = tree[0].children.map((c) => ({ dir: path.join(dir, c), children: [] }));
  for (let i = 0; made < MODULES; i++, made++) level1[i % level1.length].children.push(`c${Math.floor(i / level1.length)}`);
  const all = [tree[0], ...level1];
  for (const l of level1) for (const c of l.children) all.push({ dir: path.join(l.dir, c), children: [] });
  for (const m of all) {
    mkdirSync(m.dir, { recursive: true });
    const n = perModule + (extra-- > 0 ? 1 : 0);
    writeFileSync(path.join(m.dir, "main.tf"), moduleText(path.basename(m.dir), n, m.children));
  }
  return all.length - 1;
}

function nodeFS(base) {
  const abs = (p) => path.resolve(base, p);
  return {
    readFile(p) {
      try {
        return { ok: true, data: readFileSync(abs(p)) };
      } catch (e) {
        return { ok: false, error: String(e) };
      }
    },
    readDir(p) {
      try {
        const entries = readdirSync(abs(p), { withFileTypes: true }).map((d) => ({ name: d.name, isDir: d.isDirectory() }));
        entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        return { ok: true, entries };
      } catch (e) {
        return { ok: false, error: String(e), notFound: e.code === "ENOENT" };
      }
    },
    isDir(p) {
      try {
        return statSync(abs(p)).isDirectory();
      } catch {
        return false;
      }
    },
  };
}

const dir = mkdtempSync(path.join(os.tmpdir(), "terrace-bench-config-"));
try {
  const modules = writeTree(dir);
  const times = [];
  let counted;
  for (let run = 0; run < RUNS; run++) {
    globalThis.gc();
    const t0 = process.hrtime.bigint();
    const loader = new configs.Loader({ fs: nodeFS(dir), workingDir: "." });
    const r = loader.loadConfig(".");
    const t1 = process.hrtime.bigint();
    times.push(Number(t1 - t0) / 1e9);
    if (r.diagnostics.some((d) => d.severity === "error")) throw new Error(`load failed: ${r.diagnostics[0].summary}: ${r.diagnostics[0].detail}`);
    const all = configs.allConfigs(r.config);
    counted = { modules: all.length - 1, resources: all.reduce((n, c) => n + c.module.managedResources.size, 0) };
  }
  const s = summary(times);
  const rss = process.resourceUsage().maxRSS * 1024;
  console.log(`config-load: ${counted.modules} modules (${modules} written), ${counted.resources} resources, ${RUNS} runs`);
  console.log(`  load   best ${s.min.toFixed(3)} s   median ${s.median.toFixed(3)} s   (target < ${TARGET_S} s: ${s.median < TARGET_S ? "met" : "MISSED"})`);
  console.log(`  peak RSS ${(rss / MiB).toFixed(0)} MiB`);
  console.log(`  ${await machineLine()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
