// "Build what is not built": each artefact is rebuilt only when a source is newer than it.
import { existsSync, readdirSync, statSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ROOT, WEB, ENGINE } from "./paths.mjs";

function newestMtime(paths) {
  let newest = 0;
  const walk = (p) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p)) if (name !== "node_modules" && name !== ".next" && name !== "dist") walk(path.join(p, name));
    } else newest = Math.max(newest, st.mtimeMs);
  };
  paths.forEach(walk);
  return newest;
}

function run(cmd, args, cwd, env = {}) {
  const r = spawnSync(cmd, args, { cwd, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env } });
  if (r.status !== 0) throw new Error(`${[cmd, ...args].join(" ")} failed (exit ${r.status})`);
}

export function ensurePrismaClient() {
  const generated = path.join(ROOT, "node_modules", ".prisma", "client", "index.js");
  const schema = path.join(ROOT, "prisma", "schema.prisma");
  if (existsSync(generated) && statSync(generated).mtimeMs >= statSync(schema).mtimeMs) return false;
  run(process.execPath, [path.join(ROOT, "node_modules/prisma/build/index.js"), "generate", "--no-hints"], ROOT);
  return true;
}

export function ensureEngineBuilt() {
  // The CLI bundle: a dist built before the CLI was bundled gets rebuilt too.
  const out = path.join(ENGINE, "dist", "cli", "terrace.cjs");
  if (existsSync(out) && statSync(out).mtimeMs >= newestMtime([path.join(ENGINE, "src")])) return false;
  run(process.execPath, [path.join(ENGINE, "scripts", "build.mjs")], ENGINE);
  return true;
}

export function ensureWebBuilt({ force = false } = {}) {
  const buildId = path.join(WEB, process.env.TERRACE_NEXT_DIST_DIR || ".next", "BUILD_ID");
  const sources = [path.join(WEB, "src"), path.join(WEB, "next.config.ts"), path.join(WEB, "package.json"), path.join(ROOT, "public"), path.join(ENGINE, "src")];
  if (!force && existsSync(buildId) && statSync(buildId).mtimeMs >= newestMtime(sources)) return false;
  run(process.execPath, [path.join(ROOT, "node_modules", "next", "dist", "bin", "next"), "build"], WEB);
  return true;
}
