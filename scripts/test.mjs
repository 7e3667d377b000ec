// `npm test`: every test, on real parts. Type checks; a real PostgreSQL (embedded, or the server
// in TERRACE_TEST_DATABASE_URL's cluster); vitest's engine, web and HTTP projects; then Playwright
// in Debian's Chromium against a real Terrace. `npm test -- --only=unit,http,e2e` picks phases.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, existsSync, chmodSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres, freePort } from "./lib/postgres.mjs";
import { migrate } from "./lib/migrate.mjs";
import { ensureEngineBuilt, ensurePrismaClient, ensureWebBuilt } from "./lib/build.mjs";
import { ensureChromium } from "./lib/chromium.mjs";
import { ROOT, WEB } from "./lib/paths.mjs";

const args = process.argv.slice(2);
const onlyArg = args.find((a) => a.startsWith("--only="));
const phases = new Set((onlyArg ? onlyArg.slice(7) : "typecheck,unit,http,e2e").split(","));
const log = (m) => console.log(`\n[test] ${m}`);
const totals = { passed: 0, failed: 0, skipped: 0 };
const cleanups = [];
let failedPhases = [];

function run(cmd, cmdArgs, opts = {}) {
  const r = spawnSync(cmd, cmdArgs, { cwd: ROOT, stdio: "inherit", ...opts, env: { ...process.env, ...opts.env } });
  return r.status ?? 1;
}

function addVitestTotals(file) {
  if (!existsSync(file)) return;
  const r = JSON.parse(readFileSync(file, "utf8"));
  totals.passed += r.numPassedTests ?? 0;
  totals.failed += r.numFailedTests ?? 0;
  totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
}

function addPlaywrightTotals(file) {
  if (!existsSync(file)) return;
  const s = JSON.parse(readFileSync(file, "utf8")).stats ?? {};
  totals.passed += (s.expected ?? 0) + (s.flaky ?? 0);
  totals.failed += s.unexpected ?? 0;
  totals.skipped += s.skipped ?? 0;
}

async function cleanup() {
  while (cleanups.length) await cleanups.pop()().catch((e) => console.error(e));
}
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, async () => { await cleanup(); process.exit(130); });

async function createDatabase(baseUrl, name, template) {
  const c = new pg.Client({ connectionString: `${baseUrl}/postgres` });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await c.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
  await c.end();
}

async function startTerrace(env) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(WEB, "server.mjs")], {
    cwd: WEB,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const output = [];
  child.stdout.on("data", (d) => output.push(String(d)));
  child.stderr.on("data", (d) => output.push(String(d)));
  await new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`Terrace did not start:\n${output.join("")}`)), 60_000);
    child.on("message", (m) => m?.type === "listening" && (clearTimeout(t), resolve()));
    child.on("exit", (code) => reject(new Error(`Terrace exited (${code}):\n${output.join("")}`)));
  });
  cleanups.push(async () => {
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
    if (process.env.TERRACE_TEST_SERVER_LOG) console.log(output.join(""));
  });
  return { url: `http://127.0.0.1:${port}`, output };
}

try {
  ensurePrismaClient();
  ensureEngineBuilt();

  if (phases.has("typecheck")) {
    log("type-checking engine and web");
    for (const p of ["engine/tsconfig.json", "apps/web/tsconfig.json"]) {
      if (run(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", p, "--noEmit"]) !== 0) failedPhases.push(`typecheck ${p}`);
    }
  }

  // A real PostgreSQL for the whole run, in a throwaway directory.
  let pgBase;
  if (process.env.TERRACE_TEST_DATABASE_URL) {
    pgBase = process.env.TERRACE_TEST_DATABASE_URL.replace(/\/[^/]*$/, "");
  } else {
    const dir = mkdtempSync(path.join(os.tmpdir(), "terrace-test-"));
    chmodSync(dir, 0o755);
    log("starting a throwaway embedded PostgreSQL");
    const server = await startEmbeddedPostgres({ dir });
    cleanups.push(async () => { await server.stop(); rmSync(dir, { recursive: true, force: true }); });
    pgBase = server.baseUrl;
  }
  const template = "terrace_template";
  await createDatabase(pgBase, template);
  await migrate(`${pgBase}/${template}`);

  const resultsDir = path.join(ROOT, "test-results");
  mkdirSync(resultsDir, { recursive: true });
  const testEnv = { TERRACE_TEST_PG: pgBase, TERRACE_TEST_TEMPLATE: template };
  const vitest = (project, out, env = {}) =>
    run(process.execPath, [path.join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${out}`, "--passWithNoTests"], { env: { ...testEnv, ...env } });

  if (phases.has("unit")) {
    log("unit and database tests (vitest: engine, web)");
    const out = path.join(resultsDir, `vitest-unit-${process.pid}.json`);
    rmSync(out, { force: true });
    const code = run(process.execPath, [path.join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--project", "engine", "--project", "web", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`, "--passWithNoTests"], { env: testEnv });
    addVitestTotals(out);
    if (code !== 0) failedPhases.push("unit");
  }

  if (phases.has("http") || phases.has("e2e")) {
    log("building and starting Terrace for the HTTP and browser tests");
    ensureWebBuilt();
    await createDatabase(pgBase, "terrace_http", template);
    const admin = { email: "admin@terrace.test", password: "test-admin-password-1", token: `trc_test_${Date.now()}_admintoken` };
    const home = mkdtempSync(path.join(os.tmpdir(), "terrace-home-"));
    cleanups.push(async () => rmSync(home, { recursive: true, force: true }));
    const terrace = await startTerrace({
      DATABASE_URL: `${pgBase}/terrace_http`,
      TERRACE_HOME: home,
      TERRACE_SECRET_KEY: Buffer.alloc(32, 9).toString("base64"),
      TERRACE_ADMIN_EMAIL: admin.email,
      TERRACE_ADMIN_PASSWORD: admin.password,
      TERRACE_ADMIN_TOKEN: admin.token,
      TERRACE_MAX_STATE_BYTES: String(8 * 1024 * 1024),
    });
    const serverEnv = {
      TERRACE_TEST_URL: terrace.url,
      TERRACE_TEST_ADMIN_EMAIL: admin.email,
      TERRACE_TEST_ADMIN_PASSWORD: admin.password,
      TERRACE_TEST_ADMIN_TOKEN: admin.token,
      TERRACE_TEST_MAX_STATE_BYTES: String(8 * 1024 * 1024),
    };

    if (phases.has("http")) {
      log(`HTTP tests against ${terrace.url} (including the real terraform CLI where present)`);
      const out = path.join(resultsDir, `vitest-http-${process.pid}.json`);
      rmSync(out, { force: true });
      const code = vitest("http", out, serverEnv);
      addVitestTotals(out);
      if (code !== 0) failedPhases.push("http");
    }

    if (phases.has("e2e")) {
      log("browser tests (Playwright in Debian's Chromium)");
      const chromium = ensureChromium((m) => log(m));
      const out = path.join(resultsDir, `playwright-${process.pid}.json`);
      rmSync(out, { force: true });
      const code = run(process.execPath, [path.join(ROOT, "node_modules/@playwright/test/cli.js"), "test", "-c", "e2e/playwright.config.ts"], {
        env: { ...serverEnv, TERRACE_CHROMIUM: chromium, PLAYWRIGHT_JSON_OUTPUT_NAME: out },
      });
      addPlaywrightTotals(out);
      if (code !== 0) failedPhases.push("e2e");
    }
  }
} catch (e) {
  console.error(`[test] ${e.stack ?? e}`);
  failedPhases.push("harness");
} finally {
  await cleanup();
}

console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (failedPhases.length) console.log(`[test] failed: ${failedPhases.join(", ")}`);
process.exit(failedPhases.length ? 1 : 0);
