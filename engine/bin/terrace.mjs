#!/usr/bin/env node
// The `terrace` CLI. Runs the compiled engine (engine/dist, made by `npm install` and by
// `npm run build`): the CLI bundled into one file, run with a V8 code cache as the bundled
// providers are (quicker to start), else its modules one by one; and falls back to the
// TypeScript sources through tsx in a fresh checkout.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const bundled = fileURLToPath(new URL("../dist/cli/terrace.cjs", import.meta.url));
const compiled = new URL("../dist/cli/main.js", import.meta.url);
if (existsSync(bundled)) {
  createRequire(import.meta.url)("../src/providers-bundled/bin/launch.cjs").runBundle(bundled);
} else if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(new URL("../src/cli/main.ts", import.meta.url).href);
}
