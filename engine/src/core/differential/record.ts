// Re-records terraform's answers: `npx tsx src/core/differential/record.ts [name-or-prefix …]`
// from engine/ (all scenarios without arguments). Runs sequentially; writes recorded/<name>.json
// and deletes answer files of scenarios that no longer exist (only on a full run).
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Recording } from "./observation.js";
import { RECORDED_DIR as RECORDED } from "./recorded.js";
import { stepsDigest } from "./scenario.js";
import { SCENARIOS } from "./scenarios/index.js";
import { recordScenario, terraformVersion } from "./terraform.js";

const version = terraformVersion();
if (version === undefined || !version.startsWith("1.11.")) {
  console.error(`record.ts needs terraform 1.11 on PATH (found ${version ?? "none"})`);
  process.exit(2);
}
const only = process.argv.slice(2);
const chosen = only.length === 0 ? SCENARIOS : SCENARIOS.filter((s) => only.some((o) => s.name === o || s.name.startsWith(o)));
let failed = 0;
for (const s of chosen) {
  const started = Date.now();
  try {
    const rec: Recording = { scenario: s.name, steps_digest: stepsDigest(s), terraform: version, steps: recordScenario(s) };
    writeFileSync(join(RECORDED, `${s.name}.json`), `${JSON.stringify(rec, null, 1)}\n`);
    console.log(`${s.name}: ${rec.steps.length} steps (${Date.now() - started} ms)`);
  } catch (e) {
    failed++;
    console.error(`${s.name}: FAILED\n${e instanceof Error ? e.message : String(e)}`);
  }
}
if (only.length === 0) {
  const names = new Set(SCENARIOS.map((s) => `${s.name}.json`));
  for (const f of readdirSync(RECORDED)) if (f.endsWith(".json") && !names.has(f)) rmSync(join(RECORDED, f));
}
process.exit(failed === 0 ? 0 : 1);
