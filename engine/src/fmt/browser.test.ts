// The formatter must run in a browser (format-on-save in the editor): bundling it for the browser
// platform must succeed without any Node built-in, and the bundle must format.
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
    formatConfig: (src: string, filename: string) => { formatted: string | undefined };
    unifiedDiff: (a: string, b: string, p: string) => string;
  };
  expect(mod.formatConfig('a=1\nbb = "${x}"\n', "main.tf").formatted).toBe("a  = 1\nbb = x\n");
  expect(mod.unifiedDiff("a=1\n", "a = 1\n", "main.tf")).toBe("--- old/main.tf\n+++ new/main.tf\n@@ -1 +1 @@\n-a=1\n+a = 1\n");
});
