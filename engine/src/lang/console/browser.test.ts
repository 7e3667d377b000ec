// The console session (and with it the evaluator and the function table) must run in a browser:
// bundling it for the browser platform must succeed without Node built-ins, and the bundle must
// answer an expression.
import { build } from "esbuild";
import path from "node:path";
import { expect, it } from "vitest";

it("bundles the console session and evaluator for the browser without Node APIs", async () => {
  const out = await build({
    entryPoints: [path.join(import.meta.dirname, "index.ts")],
    bundle: true,
    platform: "browser",
    format: "esm",
    write: false,
    logLevel: "silent",
  });
  expect(out.errors).toEqual([]);
  const code = out.outputFiles[0]?.text ?? "";
  expect(code).not.toMatch(/from\s+"node:|require\("(fs|path|node:)/);
  const mod = (await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`)) as {
    createConsoleSession: (o: unknown) => { evaluate: (l: string) => unknown };
  };
  const fs = { readFile: () => undefined, isFile: () => false, isDirectory: () => false, readDir: () => [], abs: (p: string) => p, home: () => undefined };
  const s = mod.createConsoleSession({ functionContext: { baseDir: ".", fs, now: () => new Date(0), randomBytes: (n: number) => new Uint8Array(n) } });
  expect(s.evaluate('[for x in ["a", "b"]: "${x}!"]')).toEqual({ ok: true, output: '[\n  "a!",\n  "b!",\n]' });
}, 60_000);
