import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The graph module knows nothing else (no imports outside this folder) and runs in the browser
// (graph previews): no Node built-ins or globals, and no `any`.
describe("graph is self-contained and browser-safe", () => {
  const dir = import.meta.dirname;
  const sources = readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
  it.each(sources)("%s imports only this module and uses no Node APIs", (file) => {
    const text = readFileSync(path.join(dir, file), "utf8");
    const imports = [...text.matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1] as string);
    for (const spec of imports) expect(spec.startsWith("./"), `${file} imports ${spec}`).toBe(true);
    expect(text).not.toMatch(/\b(Buffer|process|require|setImmediate)\s*[.(]/);
    expect(text, file).not.toMatch(/:\s*any\b|<any>|as any\b/);
  });
});
