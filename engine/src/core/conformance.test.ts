// OpenTofu conformance cases for areas B (provider for_each at run time, 010–016) and E
// (planning behaviours, 040–071), run in place from ../shared/conformance (skipped with a note
// when absent) through the same harness as `npm run conformance`, against real plugin processes
// of the bundled `test` provider. Only the cases that pass are run here: the others are listed,
// each with its first failing check, in conformance/known-gaps.json (which the conformance
// runner keeps true).
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { planningCaseChecks } from "./conformance.harness.js";

const casesDir = path.resolve(import.meta.dirname, "../../../../shared/conformance/opentofu/cases");
const gapsFile = path.resolve(import.meta.dirname, "../../conformance/known-gaps.json");
const present = existsSync(casesDir);
if (!present) console.log(`core conformance: skipped, ${casesDir} is absent`);

const gaps = JSON.parse(readFileSync(gapsFile, "utf8")) as Record<string, string>;
const inArea = (n: number) => (n >= 10 && n < 20) || (n >= 40 && n < 80);
const names = present ? readdirSync(casesDir).filter((n) => inArea(Number(n.slice(0, 3)))) : [];
const passing = names.filter((n) => !(`opentofu/${n}` in gaps));

describe.skipIf(!present)("areas B and E", () => {
  it("has cases in both areas", () => {
    expect(names.some((n) => n.startsWith("01"))).toBe(true);
    expect(names.some((n) => n.startsWith("04"))).toBe(true);
  });
  it("lists every other case as a known gap", () => {
    expect(names.filter((n) => !passing.includes(n)).every((n) => `opentofu/${n}` in gaps)).toBe(true);
  });
  it.each(passing)("%s", async (name) => {
    const checks = await planningCaseChecks(path.join(casesDir, name));
    expect(checks?.length ?? 0).toBeGreaterThan(0);
    for (const c of checks ?? []) expect({ check: c.name, got: c.got }).toEqual({ check: c.name, got: c.want });
  }, 120_000);
});
