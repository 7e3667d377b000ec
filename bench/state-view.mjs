// Benchmark of the state-history read side (not a test): two generated ~50 MB versions with
// 20,000 instances across 100 module instances, per-instance providers and sensitive attributes.
// Calls the real route handlers in-process (authz, PostgreSQL, decrypt, decompress, parse, index,
// JSON) and prints the figures docs/performance.md records (section "State history on large
// states"):
//   - content fetch + decrypt, parse + index of one version (cold)
//   - first instances page of a version (cold cache) and later pages (warm)
//   - one instance, a filtered search
//   - diff of the two versions: first page (both versions cold, and both cached), later pages
//
//   node bench/state-view.mjs                         # throwaway embedded PostgreSQL
//   TERRACE_BENCH_PG=postgresql://u:p@host:port node bench/state-view.mjs   # a server you run
//
// Options (env): BENCH_INSTANCES (20000), BENCH_MB (50), BENCH_REPEAT (20).
import { mkdtempSync, rmSync, chmodSync } from "node:fs";
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "../scripts/lib/postgres.mjs";
import { migrate } from "../scripts/lib/migrate.mjs";
import { ensurePrismaClient } from "../scripts/lib/build.mjs";
import { WEB } from "../scripts/lib/paths.mjs";

const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 20_000);
const MB = Number(process.env.BENCH_MB ?? 50);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 20);

const stops = [];
async function stopAll() {
  while (stops.length) await stops.pop()().catch((e) => console.error(e));
}

async function database() {
  const name = `terrace_bench_sv_${randomBytes(4).toString("hex")}`;
  let base = process.env.TERRACE_BENCH_PG?.replace(/\/$/, "");
  if (!base) {
    const dir = mkdtempSync(path.join(os.tmpdir(), "terrace-bench-sv-"));
    chmodSync(dir, 0o755);
    console.log("[bench] starting a throwaway embedded PostgreSQL");
    const server = await startEmbeddedPostgres({ dir });
    stops.push(async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    });
    base = server.baseUrl;
  }
  const admin = new pg.Client({ connectionString: `${base}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  stops.push(async () => {
    const c = new pg.Client({ connectionString: `${base}/postgres` });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.end();
  });
  const url = `${base}/${name}`;
  await migrate(url);
  return url;
}

const ms = (t0) => Math.round((performance.now() - t0) * 10) / 10;
// CPU time of this process (all its threads) since `c0`: on a busy shared machine wall time
// includes waiting for a core, CPU time does not (PostgreSQL's own work is not in it).
const cpu = (c0) => {
  const d = process.cpuUsage(c0);
  return Math.round((d.user + d.system) / 100) / 10;
};
function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { p50: at(0.5), p90: at(0.9), max: s[s.length - 1] };
}

try {
  ensurePrismaClient();
  process.env.DATABASE_URL = await database();
  process.env.TERRACE_SECRET_KEY ??= Buffer.alloc(32, 9).toString("base64");
  // The web app's TypeScript (route handlers and all) runs as is, with its `@/` path alias.
  process.env.TSX_TSCONFIG_PATH = path.join(WEB, "tsconfig.json");
  const { tsImport } = await import("tsx/esm/api");
  const imp = (p) => tsImport(path.join(WEB, "src", p), import.meta.url);
  const { db, closeDb } = await imp("server/db.ts");
  stops.push(() => closeDb());
  const { sealState } = await imp("server/state/stored.ts");
  const { createToken } = await imp("server/auth/tokens.ts");
  const { generateLargeStateJson } = await imp("server/state-view/testdata/generate.ts");
  const sv = await imp("server/state-view/index.ts");
  const apiBase = "app/api/v1/orgs/[org]/workspaces/[workspace]/state-versions";
  const instancesRoute = await imp(`${apiBase}/[serial]/instances/route.ts`);
  const instanceRoute = await imp(`${apiBase}/[serial]/instance/route.ts`);
  const showRoute = await imp(`${apiBase}/[serial]/route.ts`);
  const diffRoute = await imp(`${apiBase}/diff/route.ts`);

  // An owner, an organization, a workspace, two versions.
  const user = await db().user.create({ data: { email: "bench@terrace.test", name: "bench", passwordHash: "x" } });
  const { token } = await createToken({ userId: user.id }, "bench", user.id);
  const org = await db().organization.create({ data: { name: "bench" } });
  await db().organizationMember.create({ data: { organizationId: org.id, userId: user.id, role: "owner" } });
  const ws = await db().workspace.create({ data: { organizationId: org.id, name: "big" } });
  let bytes = 0;
  const t0 = performance.now();
  for (const variant of [0, 1]) {
    const text = Buffer.from(generateLargeStateJson({ instances: INSTANCES, targetBytes: MB * 1024 * 1024, variant }));
    bytes = text.length;
    await db().stateVersion.create({
      data: {
        workspaceId: ws.id, serial: BigInt(variant + 1), lineage: "bench", sha256: "-", md5: "-", size: text.length,
        resourceCount: 0, instanceCount: INSTANCES, content: sealState(text), source: "cli", actorLabel: "bench",
      },
    });
  }
  console.log(`[bench] two versions of ${(bytes / 1024 / 1024).toFixed(1)} MiB, ${INSTANCES} instances each, stored in ${ms(t0)} ms`);

  const call = async (handler, params, query = {}) => {
    const url = new URL("http://bench.test/x");
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const t = performance.now();
    const c = process.cpuUsage();
    const res = await handler(new Request(url, { headers: { authorization: `Bearer ${token}` } }), { params: Promise.resolve({ org: "bench", workspace: "big", ...params }) });
    const body = await res.text();
    const took = ms(t);
    const cpuMs = cpu(c);
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${body.slice(0, 300)}`);
    return { took, cpuMs, body, size: body.length };
  };

  const rows = [];
  const row = (what, figures, note = "") => rows.push({ what, ...figures, note });

  // The pieces of a cold load, measured apart.
  const v1 = await sv.findVersion(ws.id, 1n);
  let t = performance.now();
  let c = process.cpuUsage();
  const content = await sv.readStateContent(v1.id);
  row("fetch + decrypt (1 version)", { ms: ms(t), cpuMs: cpu(c) }, `${(content.length / 1024 / 1024).toFixed(1)} MiB`);
  t = performance.now();
  c = process.cpuUsage();
  const text = content.toString("utf8");
  const index = sv.indexState(text);
  row("parse + index (1 version)", { ms: ms(t), cpuMs: cpu(c) }, `${index.instances.length} instances`);

  // What a person waits for.
  sv.clearStateViewCaches();
  global.gc?.();
  const first = await call(instancesRoute.GET, { serial: "1" }, { offset: "0", limit: "500" });
  row("instances: first page, cold", { ms: first.took, cpuMs: first.cpuMs }, `500 rows, ${(first.size / 1024).toFixed(0)} KiB`);
  const pages = [];
  for (let i = 0; i < REPEAT; i++) pages.push((await call(instancesRoute.GET, { serial: "1" }, { offset: String(Math.floor(Math.random() * 19_000)), limit: "500" })).took);
  row("instances: later pages (500 rows)", stats(pages), `${REPEAT} pages, cached`);
  const searches = [];
  for (let i = 0; i < REPEAT; i++) searches.push((await call(instancesRoute.GET, { serial: "1" }, { q: `svc-${String(i % 25).padStart(2, "0")}"].aws_instance`, limit: "500" })).took);
  row("instances: search (q=…)", stats(searches), "substring over 20,000 rows");
  const shows = [];
  for (let i = 0; i < REPEAT; i++) shows.push((await call(showRoute.GET, { serial: "1" })).took);
  row("version: outputs + modules", stats(shows), "cached");
  const one = [];
  for (let i = 0; i < REPEAT; i++) one.push((await call(instanceRoute.GET, { serial: "1" }, { address: `module.region["us-east-1"].module.service["svc-0${i % 10}"].aws_db_instance.main["db-0"]` })).took);
  row("one instance (masked)", stats(one), "cached");

  sv.clearStateViewCaches();
  global.gc?.();
  const dCold = await call(diffRoute.GET, {}, { from: "1", to: "2", limit: "500" });
  const summary = JSON.parse(dCold.body).summary;
  row("diff: first page, both versions cold", { ms: dCold.took, cpuMs: dCold.cpuMs }, `${summary.changed} changed, ${summary.added} added, ${summary.removed} removed`);
  const diffCache = await Promise.all([sv.findVersion(ws.id, 1n), sv.findVersion(ws.id, 2n)]);
  // The usual path in the UI: a version is open (cached), "compare with previous" loads the other.
  sv.clearStateViewCaches();
  await sv.loadIndex(diffCache[1]);
  global.gc?.();
  const dHalf = await call(diffRoute.GET, {}, { from: "1", to: "2", limit: "500" });
  row("diff: first page, one version cached", { ms: dHalf.took, cpuMs: dHalf.cpuMs }, "one cold load + diff");
  sv.clearStateViewCaches();
  await sv.loadIndex(diffCache[0]);
  await sv.loadIndex(diffCache[1]);
  const dWarm = await call(diffRoute.GET, {}, { from: "1", to: "2", limit: "500" });
  row("diff: first page, versions cached", { ms: dWarm.took, cpuMs: dWarm.cpuMs }, "diff computed");
  const dPages = [];
  for (let i = 0; i < REPEAT; i++) dPages.push((await call(diffRoute.GET, {}, { from: "1", to: "2", offset: String(i * 100), limit: "500" })).took);
  row("diff: later pages (500 rows)", stats(dPages), "diff cached");

  global.gc?.();
  const heap = process.memoryUsage();
  row("memory with 2 versions + diff cached", { heapMiB: Math.round(heap.heapUsed / 1024 / 1024), rssMiB: Math.round(heap.rss / 1024 / 1024) });

  console.log(`[bench] state-view: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), load average ${os.loadavg().map((x) => x.toFixed(1)).join(" ")}`);
  console.table(rows);
} finally {
  await stopAll();
}
