// Runs HCL's specsuite (../shared/conformance/hcl-specsuite) through the harness, so the suite is
// checked with the unit tests too, not only by `npm run conformance`.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { runSpecTest } from "./runner.js";

const SUITE = path.resolve(import.meta.dirname, "../../../../../shared/conformance/hcl-specsuite/tests");

function cases(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? cases(path.join(dir, d.name)) : d.name.endsWith(".t") ? [path.join(dir, d.name)] : [],
  );
}

it("passes every case of the HCL specsuite", () => {
  const all = cases(SUITE).sort();
  expect(all.length).toBeGreaterThanOrEqual(15);
  const failed = all
    .map((f) => ({ name: path.relative(SUITE, f), r: runSpecTest(f, (p) => (existsSync(p) ? readFileSync(p, "utf8") : undefined)) }))
    .filter((x) => !x.r.ok)
    .map((x) => `${x.name}: ${x.r.message}`);
  expect(failed).toEqual([]);
});

it("reports a mismatch in expected diagnostics", () => {
  const files: Record<string, string> = {
    "/x/case.t": "diagnostics {\n  error {\n    from {\n      line = 1\n      column = 1\n      byte = 0\n    }\n    to {\n      line = 1\n      column = 2\n      byte = 1\n    }\n  }\n}\n",
    "/x/case.hcldec": 'literal {\n  value = "ok"\n}\n',
    "/x/case.hcl": "",
  };
  const r = runSpecTest("/x/case.t", (p) => files[p]);
  expect(r.ok).toBe(false);
  expect(r.message).toContain("diagnostics differ");
});
