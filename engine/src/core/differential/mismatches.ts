// Prints every current mismatch with core, as DIFFERENCES.md lists them (grouped under the cause
// already written there, new ones under "Unexplained"), followed by what differs:
// `npx tsx src/core/differential/mismatches.ts [name-or-prefix …]` from engine/.
import { firstMismatch, type Mismatch } from "./compare.js";
import { readDifferences } from "./differences.js";
import { runScenario } from "./engine.js";
import { readRecording } from "./recorded.js";
import { SCENARIOS } from "./scenarios/index.js";

const only = process.argv.slice(2);
const chosen = only.length === 0 ? SCENARIOS : SCENARIOS.filter((s) => only.some((o) => s.name === o || s.name.startsWith(o)));
const { listed, wording: rewordings } = readDifferences();
const wording = new Map(rewordings.map((w) => [w.terraform, w.opentofu]));
const byCategory = new Map<string, Mismatch[]>();
for (const s of chosen) {
  const rec = readRecording(s.name);
  if (!rec) {
    console.error(`${s.name}: no recorded answer (run record.ts)`);
    continue;
  }
  const m = firstMismatch(s.name, rec.steps, await runScenario(s), wording);
  if (!m) continue;
  const l = listed.find((x) => x.scenario === s.name && x.step === m.step && x.aspect === m.aspect);
  const cat = l?.category ?? "Unexplained";
  byCategory.set(cat, [...(byCategory.get(cat) ?? []), m]);
}
let n = 0;
for (const [cat, ms] of byCategory) {
  console.log(`\n## ${cat}\n`);
  for (const m of ms) {
    n++;
    console.log(`- \`${m.scenario}\` step ${m.step} ${m.aspect}`);
    console.log(`  terraform: ${m.terraform.slice(0, 600)}`);
    console.log(`  core:      ${m.core.slice(0, 600)}`);
  }
}
console.log(`\n${n} mismatches in ${chosen.length} scenarios`);
