import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The values module must run in the browser (live validation in the editor): no Node built-ins.
describe("values is browser-safe", () => {
  const dir = import.meta.dirname;
  const sources = readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
  it.each(sources)("%s uses no Node APIs", (file) => {
    const text = readFileSync(path.join(dir, file), "utf8");
    const imports = [...text.matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1] as string);
    for (const spec of imports) {
      expect(spec.startsWith(".") || spec === "@msgpack/msgpack", `${file} imports ${spec}`).toBe(true);
    }
    expect(text).not.toMatch(/\b(Buffer|process|require)\s*[.(]/);
  });
  it("has no `any`", () => {
    for (const file of sources) {
      const text = readFileSync(path.join(dir, file), "utf8");
      expect(text, file).not.toMatch(/:\s*any\b|<any>|as any\b/);
    }
  });
});
