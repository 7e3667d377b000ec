// Runs the conformance suites in ../shared/conformance against the engine and prints a pass count
// per area. Every case either passes or is listed, with its reason, in
// engine/conformance/known-gaps.json: a case that is neither fails the run, and so does a listed
// case that passes (the list must stay true).
//
// `--area=D` (or `--area=A,D`, area letters as printed, HCL for the specsuite) runs only those areas.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./lib/paths.mjs";

const shared = path.resolve(ROOT, "..", "shared", "conformance");
if (!existsSync(shared)) {
  console.log("conformance: ../shared/conformance not found; nothing to run");
  process.exit(0);
}
const gaps = JSON.parse(readFileSync(path.join(ROOT, "engine/conformance/known-gaps.json"), "utf8"));
const areaArg = process.argv.slice(2).find((a) => a.startsWith("--area="));
const onlyAreas = areaArg ? new Set(areaArg.slice("--area=".length).split(",").filter((a) => a !== "")) : undefined;

// Harnesses register here as the engine grows: area -> (caseDir) => Promise<{ok, message}>.
// They are loaded from the engine's TypeScript sources through tsx, so no build is needed first.
const { tsImport } = await import("tsx/esm/api");
const readIfExists = (p) => (existsSync(p) ? readFileSync(p, "utf8") : undefined);
const { runSpecTest } = await tsImport(path.join(ROOT, "engine/src/hcl/specsuite/index.ts"), import.meta.url);
const { runProviderConfigCase } = await tsImport(path.join(ROOT, "engine/src/configs/provider_validation.harness.ts"), import.meta.url);
const { runStaticCase } = await tsImport(path.join(ROOT, "engine/src/configs/static/harness.ts"), import.meta.url);
const { runStateCase } = await tsImport(path.join(ROOT, "engine/src/states/conformance.harness.ts"), import.meta.url);
const { runProtocolCase } = await tsImport(path.join(ROOT, "engine/src/providers/conformance.harness.ts"), import.meta.url);
const { runPlanningCase } = await tsImport(path.join(ROOT, "engine/src/core/conformance.harness.ts"), import.meta.url);
const { runTestCase } = await tsImport(path.join(ROOT, "engine/src/moduletest/conformance.harness.ts"), import.meta.url);
// Cases 033 and 034 run `terrace` itself (init with prompts, every command with static variables).
const { isCLICase, runCLICase } = await tsImport(path.join(ROOT, "engine/src/cli/conformance.harness.ts"), import.meta.url);
// A case with test files (`.tftest.hcl`) is a `tofu test` case, whatever its area.
const hasTestFiles = (dir) => readdirSync(dir).some((f) => /\.(tftest|tofutest)\.(hcl|json)$/.test(f));
const caseIO = {
  readFile: (p) => {
    try {
      return readFileSync(p, "utf8");
    } catch {
      return undefined;
    }
  },
  readDir: (p) => {
    try {
      return readdirSync(p).sort();
    } catch {
      return undefined;
    }
  },
};
const harnesses = {
  HCL: async (file) => runSpecTest(file, readIfExists),
  D: async (dir) => (isCLICase(dir) ? runCLICase(dir) : runStaticCase(dir, caseIO)),
  A: async (dir) => (hasTestFiles(dir) ? runTestCase(dir) : runProviderConfigCase(dir)),
  B: async (dir) => runPlanningCase(dir),
  C: async (dir) => runStateCase(dir),
  E: async (dir) => runPlanningCase(dir),
  F: async (dir) => runProtocolCase(dir),
};

const AREAS = [
  ["A", "provider for_each: configuration", (n) => n < 10],
  ["B", "provider for_each: runtime", (n) => n >= 10 && n < 20],
  ["C", "state snapshot v4", (n) => n >= 20 && n < 30],
  ["D", "static evaluation", (n) => n >= 30 && n < 40],
  ["E", "planning behaviours", (n) => n >= 40 && n < 80],
  ["F", "protocol encoding", (n) => n >= 80],
];

const cases = [];
const tofuCases = path.join(shared, "opentofu", "cases");
for (const name of readdirSync(tofuCases).sort()) {
  const n = Number(name.slice(0, 3));
  const area = AREAS.find(([, , test]) => test(n));
  cases.push({ suite: "opentofu", id: name, area: area[0], areaName: area[1], dir: path.join(tofuCases, name) });
}
const specDir = path.join(shared, "hcl-specsuite", "tests");
const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? walk(path.join(dir, d.name)) : d.name.endsWith(".t") ? [path.join(dir, d.name)] : [],
  );
for (const file of walk(specDir).sort()) {
  const id = path.relative(specDir, file).replace(/\.t$/, "");
  cases.push({ suite: "hcl-specsuite", id, area: "HCL", areaName: "HCL specsuite", dir: file });
}

const byArea = new Map();
let unexplained = 0;
for (const c of cases) {
  if (onlyAreas && !onlyAreas.has(c.area)) continue;
  const key = `${c.area} ${c.areaName}`;
  const tally = byArea.get(key) ?? { pass: 0, gap: 0, fail: 0 };
  byArea.set(key, tally);
  const harness = harnesses[c.area];
  const result = harness ? await harness(c.dir) : { ok: false, message: "no harness for this area yet" };
  const gap = gaps[`${c.suite}/${c.id}`];
  if (result.ok && gap) {
    // The list must stay true: a case that passes now is no longer a gap.
    tally.fail++;
    unexplained++;
    console.log(`FAIL ${c.suite}/${c.id}: passes, but engine/conformance/known-gaps.json still lists it as a gap`);
  } else if (result.ok) tally.pass++;
  else if (gap) tally.gap++;
  else {
    tally.fail++;
    unexplained++;
    console.log(`FAIL ${c.suite}/${c.id}: ${result.message}`);
  }
}
for (const [area, t] of byArea) {
  console.log(`conformance ${area}: ${t.pass} passed, ${t.gap} known gaps, ${t.fail} failed`);
}
const total = [...byArea.values()].reduce((a, t) => ({ pass: a.pass + t.pass, gap: a.gap + t.gap, fail: a.fail + t.fail }), { pass: 0, gap: 0, fail: 0 });
console.log(`conformance: ${total.pass} passed, ${total.fail} failed (${total.gap} known gaps listed in engine/conformance/known-gaps.json)`);
process.exit(unexplained ? 1 : 0);
