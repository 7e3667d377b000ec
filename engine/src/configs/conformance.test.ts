// OpenTofu conformance cases about loading provider blocks (../shared/conformance/opentofu),
// run in place: 003 must load with zero diagnostics, 004 must give the "Alias required" error.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { plain } from "./diag.testkit.js";
import { nodeFS } from "./nodefs.testkit.js";
import { Parser } from "./parser.js";

const CASES = path.resolve(import.meta.dirname, "../../../../shared/conformance/opentofu/cases");

function caseDir(prefix: string): string | undefined {
  if (!existsSync(CASES)) return undefined;
  const name = readdirSync(CASES).find((n) => n.startsWith(prefix));
  return name ? path.join(CASES, name) : undefined;
}

describe("conformance", () => {
  it("003-provider-foreach-valid-file loads with zero diagnostics", () => {
    const dir = caseDir("003-");
    if (!dir) {
      console.log(`skipped: ${CASES}/003-* is absent`);
      return;
    }
    const parser = new Parser(nodeFS());
    const r = parser.loadConfigFile(path.join(dir, "provider-configs.tf"));
    expect(plain(r.diagnostics)).toEqual([]);
    const m = parser.loadConfigDir(dir);
    expect(plain(m.diagnostics)).toEqual([]);
    const baz = m.module?.providerConfigs.get("baz.foo");
    expect(baz?.alias).toBe("foo");
    expect(baz?.forEach?.kind).toBe("Object");
    expect([...(m.module?.providerConfigs.keys() ?? [])].sort()).toEqual(["bar", "bar.bar", "baz.foo", "foo"]);
  });

  it('004-provider-foreach-requires-alias reports "Alias required when using for_each"', () => {
    const dir = caseDir("004-");
    if (!dir) {
      console.log(`skipped: ${CASES}/004-* is absent`);
      return;
    }
    const parser = new Parser(nodeFS());
    const file = path.join(dir, "main.tf");
    const r = parser.loadConfigFile(file);
    expect(plain(r.diagnostics)).toEqual([
      {
        severity: "error",
        summary: 'Alias required when using "for_each"',
        detail: "The for_each argument is allowed only for provider configurations with an alias.",
        subject: "2:14-2:31",
      },
    ]);
    expect(r.diagnostics[0]?.subject?.filename).toBe(file);
  });
});
