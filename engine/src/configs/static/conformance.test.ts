// OpenTofu conformance cases 030–037 (static evaluation), configuration-level parts, run in place
// from ../shared/conformance (skipped with a note when absent). 033 and 034 run the CLI
// (cli/conformance.test.ts); their library parts are tested in static.test.ts.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { staticCaseChecks, type CaseIO } from "./harness.js";

const CASES = path.resolve(import.meta.dirname, "../../../../../shared/conformance/opentofu/cases");

const io: CaseIO = {
  readFile: (p) => (existsSync(p) && statSync(p).isFile() ? readFileSync(p, "utf8") : undefined),
  readDir: (p) => (existsSync(p) && statSync(p).isDirectory() ? readdirSync(p).sort() : undefined),
};

function caseDir(prefix: string): string | undefined {
  if (!existsSync(CASES)) return undefined;
  const name = readdirSync(CASES).find((n) => n.startsWith(prefix));
  return name ? path.join(CASES, name) : undefined;
}

describe("static evaluation conformance", () => {
  for (const id of ["030", "031", "032", "035", "036", "037"]) {
    it(`case ${id}`, () => {
      const dir = caseDir(`${id}-`);
      if (!dir) {
        console.log(`skipped: ${CASES}/${id}-* is absent`);
        return;
      }
      const checks = staticCaseChecks(dir, io) ?? [];
      expect(checks.length).toBeGreaterThan(0);
      for (const c of checks) expect({ check: c.name, value: c.got }).toEqual({ check: c.name, value: c.want });
    });
  }
});
