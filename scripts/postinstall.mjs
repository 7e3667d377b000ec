// After `npm install`/`npm ci`: generate the Prisma client (offline, engine "client") and compile
// the engine so `npx terrace` starts fast. Both are quick and idempotent.
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const run = (cmd, args, env = {}) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
run(process.execPath, [path.join(root, "node_modules/prisma/build/index.js"), "generate", "--no-hints"], {
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
});
run(process.execPath, [path.join(root, "engine/scripts/build.mjs")]);
