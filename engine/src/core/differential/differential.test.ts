// The differential check against terraform 1.11: every scenario is run with core and compared,
// step by step, with terraform's recorded answers (recorded/, written by record.ts). A scenario
// passes when it matches, or when its first mismatch is the one DIFFERENCES.md lists for it;
// a listed mismatch that no longer happens fails too, so the list stays true.
import { afterAll, describe, expect, it } from "vitest";
import { firstMismatch, type Mismatch, type Wording } from "./compare.js";
import { readDifferences } from "./differences.js";
import { runScenario } from "./engine.js";
import { readRecording } from "./recorded.js";
import { stepsDigest } from "./scenario.js";
import { SCENARIOS } from "./scenarios/index.js";

const { listed, wording: rewordings, problems } = readDifferences();
const wording: Wording = new Map(rewordings.map((w) => [w.terraform, w.opentofu]));
const found = new Map<string, Mismatch | undefined>();

function describeMismatch(m: Mismatch): string {
  return `\`${m.scenario}\` step ${m.step} ${m.aspect}\n  terraform: ${m.terraform.slice(0, 2000)}\n  core:      ${m.core.slice(0, 2000)}`;
}

describe("differential check against terraform 1.11", () => {
  it("has at least 100 scenarios, each with a recorded answer", () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(100);
    expect(SCENARIOS.filter((s) => readRecording(s.name) === undefined).map((s) => s.name)).toEqual([]);
  });

  it("every recorded answer was recorded from the scenario's current steps (else run record.ts)", () => {
    expect(SCENARIOS.filter((s) => readRecording(s.name)?.steps_digest !== stepsDigest(s)).map((s) => s.name)).toEqual([]);
  });

  it("DIFFERENCES.md is well formed: known scenarios, one entry each", () => {
    expect(problems).toEqual([]);
    const names = new Set(SCENARIOS.map((s) => s.name));
    expect(listed.filter((l) => !names.has(l.scenario)).map((l) => `line ${l.line}: ${l.scenario}`)).toEqual([]);
    const seen = new Set<string>();
    const dups = listed.filter((l) => (seen.has(l.scenario) ? true : (seen.add(l.scenario), false))).map((l) => l.scenario);
    expect(dups).toEqual([]);
  });

  it("every rewording in DIFFERENCES.md is needed by some recorded answer", () => {
    const summaries = new Set<string>();
    for (const s of SCENARIOS)
      for (const st of readRecording(s.name)?.steps ?? [])
        for (const d of [...(st.plan?.errors ?? []), ...(st.plan?.warnings ?? []), ...(st.apply?.errors ?? []), ...(st.apply?.warnings ?? [])]) summaries.add(d.summary);
    expect(rewordings.filter((w) => !summaries.has(w.terraform)).map((w) => `line ${w.line}: ${w.terraform}`)).toEqual([]);
  });

  for (const s of SCENARIOS) {
    it(s.name, { timeout: 60_000 }, async () => {
      const rec = readRecording(s.name);
      if (!rec) throw new Error(`no recorded answer for ${s.name}: run record.ts`);
      const m = firstMismatch(s.name, rec.steps, await runScenario(s), wording);
      found.set(s.name, m);
      const l = listed.find((x) => x.scenario === s.name);
      if (m === undefined) {
        expect(l, `${s.name} matches terraform now: remove DIFFERENCES.md line ${l?.line}`).toBeUndefined();
        return;
      }
      expect(l, `unlisted mismatch (add it to DIFFERENCES.md with its cause, or fix it):\n- ${describeMismatch(m)}`).toBeDefined();
      expect({ step: l?.step, aspect: l?.aspect }, `DIFFERENCES.md line ${l?.line} names another step or aspect than the first mismatch:\n- ${describeMismatch(m)}`).toEqual({
        step: m.step,
        aspect: m.aspect,
      });
    });
  }

  afterAll(() => {
    const mismatches = [...found.values()].filter((m) => m !== undefined);
    const byCategory = new Map<string, number>();
    for (const m of mismatches) {
      const cat = listed.find((l) => l.scenario === m.scenario)?.category ?? "(not listed)";
      byCategory.set(cat, (byCategory.get(cat) ?? 0) + 1);
    }
    const lines = [...byCategory].map(([c, n]) => `  ${n} × ${c}`);
    console.log(`differential: ${mismatches.length} mismatches in ${found.size} scenarios compared with terraform 1.11\n${lines.join("\n")}`);
  });
});
