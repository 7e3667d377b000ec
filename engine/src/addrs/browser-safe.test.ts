import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// addrs runs in the browser too (live validation in the editor): no Node built-ins, no Node
// globals, imports only from hcl and values, and no `any`.
describe("addrs is browser-safe", () => {
  const dir = import.meta.dirname;
  const sources = readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
  it.each(sources)("%s imports only hcl, values and its own files", (file) => {
    const text = readFileSync(path.join(dir, file), "utf8");
    const imports = [...text.matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1] as string);
    for (const spec of imports) {
      const allowed = spec === "../hcl/index.js" || spec === "../values/index.js" || (spec.startsWith("./") && !spec.includes("/", 2));
      expect(allowed, `${file} imports ${spec}`).toBe(true);
    }
    expect(text).not.toMatch(/\b(Buffer|process|require|__dirname|__filename)\s*[.([]/);
    expect(text, file).not.toMatch(/:\s*any\b|<any>|as any\b/);
  });
});
