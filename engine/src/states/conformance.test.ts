// OpenTofu conformance cases for state snapshots (area C, cases 020–022), run in place from
// ../shared/conformance (skipped with a note when absent) through the same harness as
// `npm run conformance`: the checks live in conformance.harness.ts.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runStateCase, stateCaseChecks } from "./conformance.harness.js";

const casesDir = path.resolve(import.meta.dirname, "../../../../shared/conformance/opentofu/cases");
const present = existsSync(casesDir);
if (!present) console.log(`states conformance: skipped, ${casesDir} is absent`);

const names = present ? readdirSync(casesDir) : [];

for (const id of ["020", "021", "022"]) {
  const name = names.find((n) => n.startsWith(`${id}-`));
  describe.skipIf(!present)(name ?? `case ${id}`, () => {
    const dir = path.join(casesDir, name ?? `${id}-missing`);
    const checks = present && name ? (stateCaseChecks(dir) ?? []) : [];
    it("is present and has checks", () => {
      expect(name, `case ${id} directory`).toBeDefined();
      expect(checks.length).toBeGreaterThan(0);
    });
    it.each(checks.map((c) => [c.name, c] as const))("%s", (_name, c) => {
      expect(c.got).toEqual(c.want);
    });
    it("passes as a whole (as npm run conformance runs it)", () => {
      expect(runStateCase(dir)).toMatchObject({ ok: true });
    });
  });
}
