// The module must run in a browser (live validation in the editor): bundling it for the browser
// platform must succeed without any Node built-in, and the bundle must parse.
import { build } from "esbuild";
import path from "node:path";
import { expect, it } from "vitest";

it("bundles for the browser without Node APIs", async () => {
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
    parseConfig: (src: string, filename: string) => { diagnostics: unknown[] };
  };
  expect(mod.parseConfig('a = "b"\n', "main.tf").diagnostics).toEqual([]);
});
